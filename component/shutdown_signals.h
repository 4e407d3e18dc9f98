// ShutdownSignals: SIGTERM and SIGINT as a graceful stop and hand-over
// (docs/attacher.md §7).
//
// Upstream dies mid-call on SIGTERM unless an alpha gate is on. Here the
// first signal requests stop on the given stop_source, so the controller
// stops taking work and lets in-flight calls finish; a second signal means
// the operator is out of patience: the process ends at once with exit 1.
//
// The constructor blocks both signals in the calling thread, and so in every
// thread started from it afterwards, and waits for them on a thread of its
// own, reading them from a signalfd (no async-signal-safety concerns, normal
// logging). That thread sleeps until a signal or the destructor wakes it: an
// idle sidecar should not wake up ten times a second to look. Create it
// before any other thread starts; the destructor restores the caller's signal
// mask. One instance at a time per process.
#pragma once

#include <signal.h>

#include <functional>
#include <stop_token>
#include <thread>

namespace component {

class ShutdownSignals {
 public:
  // `on_second_signal` defaults to base::FlushAndExit(1).
  explicit ShutdownSignals(std::stop_source stop, std::function<void()> on_second_signal = {});
  ~ShutdownSignals();
  ShutdownSignals(const ShutdownSignals&) = delete;
  ShutdownSignals& operator=(const ShutdownSignals&) = delete;

 private:
  void Watch();

  std::stop_source stop_;
  std::function<void()> on_second_signal_;
  sigset_t previous_mask_;
  int signal_fd_ = -1;    // SIGTERM and SIGINT, readable when one is pending
  int wake_fd_ = -1;      // an eventfd the destructor writes to end Watch
  std::jthread watcher_;  // last: joined before the members it uses go
};

}  // namespace component
