// Map-valued flags whose repeats merge instead of replacing.
//
// MapStringBoolValue parses `Key=bool,Key2=bool` the way Kubernetes'
// cliflag.MapStringBool does (used for --feature-gates): items are trimmed,
// empty items skipped, the first Set drops the defaults and later ones merge.
// ColonMapValue parses `k:v,k2:v2` like csi-lib-utils' label flag (used for
// --leader-election-labels): every item must split on ':' into exactly two
// parts, nothing is trimmed, and every Set merges into the map.
// Both point at a caller-owned map that must outlive them.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "base/flags.h"

namespace base {

class MapStringBoolValue final : public FlagValue {
 public:
  explicit MapStringBoolValue(std::map<std::string, bool>* target) : target_(target) {}
  Status Set(std::string_view text) override;
  // `a=true,b=false`, sorted.
  std::string String() const override;

 private:
  std::map<std::string, bool>* target_;
  bool initialized_ = false;
};

class ColonMapValue final : public FlagValue {
 public:
  explicit ColonMapValue(std::map<std::string, std::string>* target) : target_(target) {}
  Status Set(std::string_view text) override;
  // Go's %s of a map: `map[a:b c:d]`.
  std::string String() const override;
  std::string ZeroString() const override { return "map[]"; }

 private:
  std::map<std::string, std::string>* target_;
};

}  // namespace base
