#include "cmd/livenessprobe/run.h"

#include <optional>

#include "cmd/livenessprobe/options.h"
#include "component/command_line.h"
#include "component/exit_codes.h"
#include "component/feature_gates.h"
#include "component/shutdown_signals.h"
#include "liveness/run_probe.h"

namespace livenessprobe {

int Run(const std::vector<std::string>& args, component::RunEnvironment env) {
  Options options;
  base::FlagSet flags(component::ProgramName(args, "livenessprobe"), env.err);
  RegisterFlags(flags, options);
  component::FeatureGates no_gates({});  // upstream registers no --feature-gates
  if (std::optional<int> exit =
          component::ParseCommandLine(args, flags, options, no_gates, *env.out)) {
    return *exit;
  }
  if (base::Status s = CheckOptions(options); !s.ok()) return component::Fail(s.error().message);
  // Before any other thread, so that they all inherit the blocked mask.
  std::optional<component::ShutdownSignals> signals;
  if (env.handle_signals) signals.emplace(env.stop);
  return liveness::RunLivenessProbe(LivenessOptionsFrom(options), env.stop.get_token());
}

int Run(int argc, const char* const* argv) {
  return Run(std::vector<std::string>(argv, argv + argc), component::RunEnvironment{});
}

}  // namespace livenessprobe
