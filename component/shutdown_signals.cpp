#include "component/shutdown_signals.h"

#include <pthread.h>

#include <ctime>

#include "base/log.h"

namespace component {
namespace {

sigset_t ShutdownSet() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

ShutdownSignals::ShutdownSignals(std::stop_source stop, std::function<void()> on_second_signal)
    : stop_(std::move(stop)), on_second_signal_(std::move(on_second_signal)) {
  if (!on_second_signal_) on_second_signal_ = [] { base::FlushAndExit(1); };
  sigset_t set = ShutdownSet();
  pthread_sigmask(SIG_BLOCK, &set, &previous_mask_);
  watcher_ = std::jthread([this](std::stop_token done) { Watch(done); });
}

ShutdownSignals::~ShutdownSignals() {
  watcher_.request_stop();
  if (watcher_.joinable()) watcher_.join();
  pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
}

void ShutdownSignals::Watch(std::stop_token done) {
  const sigset_t set = ShutdownSet();
  // sigtimedwait cannot be woken by a stop token; a short timeout bounds how
  // long the destructor waits.
  const timespec poll = {0, 100'000'000};
  int received = 0;
  while (!done.stop_requested()) {
    int signal = sigtimedwait(&set, nullptr, &poll);
    if (signal < 0) continue;  // timeout or EINTR
    if (++received == 1) {
      LOG_INFO("Received SIGTERM or SIGINT signal, shutting down controller.")
          .With("signal", signal == SIGTERM ? "SIGTERM" : "SIGINT");
      stop_.request_stop();
    } else {
      LOG_INFO("Received a second SIGTERM or SIGINT signal, exiting immediately.");
      on_second_signal_();
    }
  }
}

}  // namespace component
