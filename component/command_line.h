// The first steps of every binary, in upstream's order: parse the flags (Go's
// rules; positional arguments are an error), apply the logging flags, set the
// feature gates, answer --version, log the version. What a binary checks
// after that is its own.
#pragma once

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

// `args` includes the program name; `flags` has every flag registered, the
// process ones writing into `options`. Returns the exit code when the process
// ends here (2: usage error, 0: --help or --version, 1: bad logging flags or
// gates, logged), nullopt when it goes on. --version prints
// "<program> <version>" to `out`.
std::optional<int> ParseCommandLine(const std::vector<std::string>& args, base::FlagSet& flags,
                                    const ProcessOptions& options, FeatureGates& gates,
                                    std::ostream& out);

}  // namespace component
