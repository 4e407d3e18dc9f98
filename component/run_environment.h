// RunEnvironment: what a binary's Run takes from its process, so tests can
// run it in-process with their own streams, stop source and CSI connection
// loss handling.
#pragma once

#include <functional>
#include <iostream>
#include <stop_token>
#include <string>

namespace component {

struct RunEnvironment {
  // --version output.
  std::ostream* out = &std::cout;
  // Flag errors and usage, as Go's flag package prints them.
  std::ostream* err = &std::cerr;
  // Requesting stop shuts down gracefully; the signal handler uses it too.
  std::stop_source stop;
  // Install the SIGTERM/SIGINT handling (ShutdownSignals). Off in unit tests,
  // which share one process.
  bool handle_signals = true;
  // Passed to csi::Connect: where the lost-connection message is written and
  // what happens then (empty: exit 1).
  std::string termination_log_path = "/dev/termination-log";
  std::function<void()> on_connection_loss;
};

// A real process's environment (main): stdout and stderr, signal handling,
// and /dev/termination-log unless the environment variable
// `termination_log_env` names another file - a test hook only, as
// integration tests cannot write /dev/termination-log.
RunEnvironment ProcessEnvironment(const char* termination_log_env);

}  // namespace component
