#include "cmd/csi-node-driver-registrar/run.h"

#include <optional>

#include "base/log.h"
#include "cmd/csi-node-driver-registrar/options.h"
#include "component/command_line.h"
#include "component/exit_codes.h"
#include "component/feature_gates.h"
#include "component/shutdown_signals.h"
#include "registrar/run_registrar.h"

namespace noderegistrar {

int Run(const std::vector<std::string>& args, component::RunEnvironment env) {
  Options options;
  base::FlagSet flags(component::ProgramName(args, "csi-node-driver-registrar"), env.err);
  RegisterFlags(flags, options);
  component::FeatureGates no_gates({});  // upstream registers no --feature-gates
  if (std::optional<int> exit =
          component::ParseCommandLine(args, flags, options, no_gates, *env.out)) {
    return *exit;
  }
  if (base::Status s = CheckRegistrationPath(options); !s.ok()) {
    return component::Fail(s.error().message);
  }
  if (options.mode == kModeRegistrationProbe) {
    LOG_INFO("Kubelet plugin registration probe mode: nothing to check, exiting");
    return component::kExitSuccess;
  }
  LOG_INFO("Running node-driver-registrar").With("mode", options.mode);
  if (base::Status s = CheckHttpFlags(options); !s.ok()) return component::Fail(s.error().message);
  if (options.connection_timeout.count() != 0) {
    LOG_WARNING("--connection-timeout is deprecated and will have no effect");
  }
  if (options.enable_pprof) {
    LOG_INFO("--enable-pprof has no effect: there is no Go runtime to profile");
  }
  // Before any other thread, so that they all inherit the blocked mask.
  std::optional<component::ShutdownSignals> signals;
  if (env.handle_signals) signals.emplace(env.stop);
  return registrar::RunRegistrar(RegistrarOptionsFrom(options), env.stop.get_token());
}

int Run(int argc, const char* const* argv) {
  return Run(std::vector<std::string>(argv, argv + argc), component::RunEnvironment{});
}

}  // namespace noderegistrar
