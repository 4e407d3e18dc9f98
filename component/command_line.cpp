#include "component/command_line.h"

#include "base/log.h"
#include "base/log_options.h"
#include "base/version.h"
#include "component/exit_codes.h"

namespace component {

std::string ProgramName(const std::vector<std::string>& args, std::string_view fallback) {
  return args.empty() ? std::string(fallback) : args[0];
}

std::optional<int> ParseCommandLine(const std::vector<std::string>& args, base::FlagSet& flags,
                                    const ProcessOptions& options, FeatureGates& gates,
                                    std::ostream& out, BadFeatureGates bad_gates,
                                    const std::function<std::optional<int>()>& before_version) {
  std::vector<std::string> flag_args;
  if (!args.empty()) flag_args.assign(args.begin() + 1, args.end());
  if (base::Status s = flags.Parse(flag_args); !s.ok()) return s.error().code;

  if (base::Status s = base::ValidateAndApplyLoggingOptions(options.logging); !s.ok()) {
    return Fail("LoggingConfiguration is invalid", s.error());
  }

  if (base::Status s = gates.SetFromMap(options.feature_gates); !s.ok()) {
    if (bad_gates == BadFeatureGates::kFatal) {
      return FailFatally("Error while parsing feature gates: " + s.error().message);
    }
    LOG_ERROR("failed to store flag gates")
        .With("err", s.error().message)
        .With("featureGates", FormatFeatureGates(options.feature_gates));
    return kExitFailure;
  }

  if (before_version) {
    if (std::optional<int> exit = before_version()) return exit;
  }

  if (options.show_version) {
    out << flags.program() << " " << base::Version() << std::endl;
    return kExitSuccess;
  }
  LOG_INFO("Version").With("version", base::Version());
  return std::nullopt;
}

}  // namespace component
