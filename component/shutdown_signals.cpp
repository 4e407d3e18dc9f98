#include "component/shutdown_signals.h"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

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
  signal_fd_ = signalfd(-1, &set, SFD_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_CLOEXEC);
  if (signal_fd_ < 0 || wake_fd_ < 0) {
    // Only when out of file descriptors at start-up: without them the process
    // could not honour SIGTERM, so it must not run.
    LOG_ERROR("Cannot watch for SIGTERM and SIGINT").With("error", std::strerror(errno));
    base::FlushAndExit(1);
  }
  watcher_ = std::jthread([this] { Watch(); });
}

ShutdownSignals::~ShutdownSignals() {
  const uint64_t one = 1;
  while (write(wake_fd_, &one, sizeof one) < 0 && errno == EINTR) {
  }
  if (watcher_.joinable()) watcher_.join();
  close(signal_fd_);
  close(wake_fd_);
  pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
}

void ShutdownSignals::Watch() {
  int received = 0;
  for (;;) {
    pollfd fds[] = {{.fd = signal_fd_, .events = POLLIN}, {.fd = wake_fd_, .events = POLLIN}};
    if (poll(fds, 2, -1) < 0) continue;  // EINTR
    if (fds[1].revents != 0) return;
    signalfd_siginfo info;
    if (fds[0].revents == 0 || read(signal_fd_, &info, sizeof info) != sizeof info) continue;
    if (++received == 1) {
      LOG_INFO("Received SIGTERM or SIGINT signal, shutting down controller.")
          .With("signal", info.ssi_signo == SIGTERM ? "SIGTERM" : "SIGINT");
      stop_.request_stop();
    } else {
      LOG_INFO("Received a second SIGTERM or SIGINT signal, exiting immediately.");
      on_second_signal_();
    }
  }
}

}  // namespace component
