// Run: the sidecar's whole life, in upstream's startup order (BEHAVIOR.md
// §1.4, §2): flags, logging, feature gates, --version, the HTTP flag
// conflict, the Kubernetes client, --worker-threads, the CSI connection,
// probe, driver name, capabilities, then the controller until a signal.
//
// Every failure is logged and becomes an exit code instead of ending the
// process, so tests can drive Run with arguments and read what it returns
// and prints: 2 for command-line mistakes (Go flag rules, and positional
// arguments, BEHAVIOR.md §7), 0 for --help and --version, 1 for everything
// found wrong after parsing. A graceful stop (first SIGTERM/SIGINT, or
// `stop` in the environment) also returns 0, even during startup. Only the
// lost CSI connection and a second signal end the process directly (exit 1),
// as upstream does.
#pragma once

#include <functional>
#include <iostream>
#include <stop_token>
#include <string>
#include <vector>

namespace csiattacher {

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

// `args` includes the program name (argv[0]).
int Run(const std::vector<std::string>& args, RunEnvironment env = {});

// For main(): the real argv, stdout/stderr and signal handling.
int Run(int argc, const char* const* argv);

}  // namespace csiattacher
