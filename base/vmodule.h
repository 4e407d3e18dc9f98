// --vmodule: per-source-file verbosity, as klog implements it.
//
// The flag text is `pattern=N,...` (parsed like Kubernetes' component-base:
// empty items skipped, N decimal in [0, 2^31-1], repeats append). A pattern is
// a Go filepath.Match glob (`*`, `?`, `[a-z]`, `\` escapes) matched against
// the source file's base name without extension (`controller` for
// `/src/attacher/controller.cpp`). The first matching item with N > 0 decides
// the file's level; items with N = 0 are ignored, as klog ignores them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace base {

struct VModuleItem {
  std::string pattern;
  int level = 0;
  bool operator==(const VModuleItem&) const = default;
};

// Appends the items of `text` to *items, with component-base's errors
// (`"x" does not have the pattern=N format`, `parsing verbosity in "x=a": ...`).
Status ParseVModule(std::string_view text, std::vector<VModuleItem>* items);

// `pattern=N,...`, the flag's String().
std::string FormatVModule(const std::vector<VModuleItem>& items);

// Go's filepath.Match; a malformed pattern matches nothing.
bool GlobMatch(std::string_view pattern, std::string_view name);

// The verbosity `items` give the source file at `path`; 0 if none matches.
int VModuleLevel(const std::vector<VModuleItem>& items, std::string_view path);

}  // namespace base
