// The first steps of every binary, in upstream's order: parse the flags (Go's
// rules; positional arguments are an error), apply the logging flags, set the
// feature gates, answer --version, log the version. What a binary checks
// after that is its own.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "base/flags.h"
#include "component/feature_gates.h"
#include "component/standard_flags.h"

namespace component {

// args[0], or `fallback` when there is none: how usage and --version name the program.
std::string ProgramName(const std::vector<std::string>& args, std::string_view fallback);

// How a binary reports feature gates it cannot set; upstream's binaries differ.
enum class BadFeatureGates {
  // external-attacher: error "failed to store flag gates" with the gates, exit 1.
  kLogError,
  // external-snapshotter: klog.Fatal("Error while parsing feature gates: <err>"), exit 255.
  kFatal,
};

// `args` includes the program name; `flags` has every flag registered, the
// process ones writing into `options`. Returns the exit code when the process
// ends here (2: usage error, 0: --help or --version, 1: bad logging flags,
// 1 or 255 for bad gates as `bad_gates` says, logged), nullopt when it goes
// on. --version prints "<program> <version>" to `out`. `before_version`, if
// set, runs between the gates and --version (a binary's own check upstream
// makes there) and ends it with its exit code, if any.
std::optional<int> ParseCommandLine(const std::vector<std::string>& args, base::FlagSet& flags,
                                    const ProcessOptions& options, FeatureGates& gates,
                                    std::ostream& out,
                                    BadFeatureGates bad_gates = BadFeatureGates::kLogError,
                                    const std::function<std::optional<int>()>& before_version = {});

}  // namespace component
