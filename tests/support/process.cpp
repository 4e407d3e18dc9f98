#include "tests/support/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace testsupport {
namespace {

base::Error OsError(std::string_view what, int err) {
  return base::Error(std::string(what) + ": " + std::strerror(err));
}

// The parent's environment with `additions` replacing same-named variables.
std::vector<std::string> ChildEnvironment(
    const std::vector<std::pair<std::string, std::string>>& additions) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string_view entry(*e);
    std::string_view name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& [key, value] : additions) replaced = replaced || key == name;
    if (!replaced) env.emplace_back(entry);
  }
  for (const auto& [key, value] : additions) env.push_back(key + "=" + value);
  return env;
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Runs in the forked child: only async-signal-safe calls until execve.
[[noreturn]] void ExecChild(pid_t parent, int log_fd, int null_fd, int error_fd, char** argv,
                            char** envp) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The parent may have died before prctl took effect.
  if (getppid() != parent) _exit(127);
  // A blocked or ignored signal survives execve; the child must see SIGTERM
  // even when our caller blocks it for sigwait (tools/local-control-plane).
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig : {SIGTERM, SIGINT, SIGPIPE, SIGHUP}) sigaction(sig, &dfl, nullptr);

  if (dup2(null_fd, STDIN_FILENO) < 0 || dup2(log_fd, STDOUT_FILENO) < 0 ||
      dup2(log_fd, STDERR_FILENO) < 0) {
    int err = errno;
    (void)!write(error_fd, &err, sizeof(err));
    _exit(127);
  }
  // Descriptors our process opened without O_CLOEXEC (sockets of other
  // libraries) must not leak into a long-lived peer. error_fd is O_CLOEXEC.
  if (error_fd > 3) syscall(SYS_close_range, 3U, static_cast<unsigned>(error_fd - 1), 0U);
  syscall(SYS_close_range, static_cast<unsigned>(error_fd + 1), ~0U, 0U);

  execve(argv[0], argv, envp);
  int err = errno;
  (void)!write(error_fd, &err, sizeof(err));
  _exit(127);
}

}  // namespace

base::Result<std::unique_ptr<Process>> Process::Spawn(const ProcessOptions& options) {
  if (options.argv.empty()) return base::Error("Process::Spawn: empty argv");
  const std::string& program = options.argv[0];

  // Everything the child needs is prepared here: it may not allocate.
  std::vector<std::string> argv_strings = options.argv;
  std::vector<std::string> env_strings = ChildEnvironment(options.env);
  std::vector<char*> argv = Pointers(argv_strings);
  std::vector<char*> envp = Pointers(env_strings);

  int log_fd = open(options.log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) return OsError("open log " + options.log_file, errno);
  int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  int error_pipe[2];
  if (null_fd < 0 || pipe2(error_pipe, O_CLOEXEC) < 0) {
    int err = errno;
    close(log_fd);
    if (null_fd >= 0) close(null_fd);
    return OsError("spawn " + program, err);
  }

  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) ExecChild(parent, log_fd, null_fd, error_pipe[1], argv.data(), envp.data());
  int fork_errno = errno;
  close(log_fd);
  close(null_fd);
  close(error_pipe[1]);
  if (pid < 0) {
    close(error_pipe[0]);
    return OsError("fork for " + program, fork_errno);
  }
  // Also from this side, so the group exists as soon as Spawn returns.
  setpgid(pid, pid);

  // The pipe closes on a successful execve; otherwise it carries errno.
  int exec_errno = 0;
  ssize_t n;
  do {
    n = read(error_pipe[0], &exec_errno, sizeof(exec_errno));
  } while (n < 0 && errno == EINTR);
  close(error_pipe[0]);
  if (n > 0) {
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    return OsError("execute " + program, exec_errno);
  }
  return std::unique_ptr<Process>(new Process(pid, options.log_file));
}

Process::~Process() { Stop(); }

void Process::Reaped(int wait_status) {
  reaped_ = true;
  exit_status_ = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
}

bool Process::IsRunning() {
  if (reaped_) return false;
  int wait_status = 0;
  pid_t r = waitpid(pid_, &wait_status, WNOHANG);
  if (r == pid_) Reaped(wait_status);
  return !reaped_;
}

int Process::Wait() {
  int wait_status = 0;
  while (!reaped_) {
    if (waitpid(pid_, &wait_status, 0) == pid_) {
      Reaped(wait_status);
    } else if (errno != EINTR) {
      // Not our child any more (reaped elsewhere): nothing left to wait for.
      reaped_ = true;
    }
  }
  return exit_status_;
}

void Process::Stop(std::chrono::milliseconds grace) {
  if (stopped_) return;
  stopped_ = true;
  if (IsRunning() && grace.count() > 0) {
    kill(-pid_, SIGTERM);
    auto deadline = std::chrono::steady_clock::now() + grace;
    while (IsRunning() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  kill(-pid_, SIGKILL);
  Wait();
}

std::string Process::LogTail(int lines) const { return FileTail(log_file_, lines); }

std::string FileTail(const std::string& path, int lines) {
  if (lines <= 0) return "";
  constexpr off_t kMaxBytes = 64 * 1024;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "(cannot read " + path + ": " + std::strerror(errno) + ")";
  struct stat st {};
  fstat(fd, &st);
  off_t start = st.st_size > kMaxBytes ? st.st_size - kMaxBytes : 0;
  std::string text(static_cast<size_t>(st.st_size - start), '\0');
  ssize_t n = pread(fd, text.data(), text.size(), start);
  close(fd);
  text.resize(n > 0 ? static_cast<size_t>(n) : 0);
  // Drop the partial first line of a window that starts mid-file.
  if (start > 0) text.erase(0, text.find('\n') + 1);
  if (!text.empty() && text.back() == '\n') text.pop_back();

  size_t begin = text.size();
  int found = 0;
  while (begin > 0) {
    size_t newline = text.rfind('\n', begin - 1);
    if (newline == std::string::npos) {
      begin = 0;
      break;
    }
    if (++found == lines) {
      begin = newline + 1;
      break;
    }
    begin = newline;
  }
  return text.substr(begin);
}

}  // namespace testsupport
