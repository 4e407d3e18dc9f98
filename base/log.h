// klog-compatible structured logging.
//
//   LOG_INFO("Started watch").With("resource", "volumeattachments");
//   LOG_V(5, "GRPC call").With("method", m);
//   LOG_ERROR("Watch failed").With("err", e.message);
//
// Text format, as klog writes it:
//   I1122 12:48:00.123456   12345 file.cpp:42] "msg" key="value" n=5
// (local time; the thread id, right-aligned in 7 columns, where Go has its
// pid). String values are Go-quoted, multi-line ones use klog's `key=<` block.
// JSON format, as Kubernetes' zap-based JSON logger writes it:
//   {"ts":1700000000123.4567,"caller":"dir/file.cpp:42","msg":"msg","v":0,"key":"value"}
// (ts in epoch milliseconds; "v" is the LOG_V level, absent on errors).
// A line is written when the LogLine temporary is destroyed, in one write to
// stderr under a mutex; SetLogSink redirects it (tests capture lines).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "base/vmodule.h"

namespace base {

enum class Severity { kInfo, kWarning, kError, kFatal };
enum class LogFormat { kText, kJson };

struct LogConfig {
  int verbosity = 0;
  LogFormat format = LogFormat::kText;
  std::vector<VModuleItem> vmodule = {};
};

// Replaces the process-wide configuration. Meant for startup (and tests): a
// line being built concurrently may still use the old format.
void SetLogConfig(const LogConfig& config);
int Verbosity();
// Whether LOG_V(level) in source file `file` is on: -v, then --vmodule. Only
// an atomic load unless --vmodule is set.
bool VEnabled(int level, const char* file);

// Receives each finished line (with trailing newline). Default: stderr.
using LogSink = std::function<void(std::string_view line)>;
void SetLogSink(LogSink sink);  // nullptr restores stderr

// klog.FlushAndExit: flushes stdio and ends the process at once, without
// running destructors that other threads might still depend on.
[[noreturn]] void FlushAndExit(int code);

class LogLine {
 public:
  // `v_level` is the LOG_V level (JSON's "v"); plain lines have 0.
  LogLine(Severity severity, const char* file, int line, std::string_view message, int v_level = 0);
  ~LogLine();
  LogLine(const LogLine&) = delete;
  LogLine& operator=(const LogLine&) = delete;

  LogLine& With(std::string_view key, std::string_view value);
  LogLine& With(std::string_view key, const char* value) {
    return With(key, std::string_view(value));
  }
  LogLine& With(std::string_view key, const std::string& value) {
    return With(key, std::string_view(value));
  }
  LogLine& With(std::string_view key, bool value);
  // Durations print as Go's Duration.String() ("1m30s"), quoted like strings.
  LogLine& With(std::string_view key, std::chrono::nanoseconds value);
  template <typename N, typename = std::enable_if_t<std::is_arithmetic_v<N>>>
  LogLine& With(std::string_view key, N value) {
    if constexpr (std::is_floating_point_v<N>) {
      return WithFloat(key, static_cast<double>(value));
    } else {
      std::string rendered = std::to_string(value);
      return WithRaw(key, rendered, rendered);
    }
  }

 private:
  LogLine& WithFloat(std::string_view key, double value);
  LogLine& WithRaw(std::string_view key, std::string_view text, std::string_view json);

  Severity severity_;
  const char* file_;
  int line_;
  int v_level_;
  LogFormat format_;
  std::string message_;
  std::string fields_;  // rendered in format_
};

}  // namespace base

#define LOG_INFO(msg) ::base::LogLine(::base::Severity::kInfo, __FILE__, __LINE__, (msg))
#define LOG_WARNING(msg) ::base::LogLine(::base::Severity::kWarning, __FILE__, __LINE__, (msg))
#define LOG_ERROR(msg) ::base::LogLine(::base::Severity::kError, __FILE__, __LINE__, (msg))
// The `if/else` keeps the argument expressions unevaluated when disabled; the
// `switch` makes the macro a complete statement, so an `else` after it in an
// unbraced if binds as written (and -Wdangling-else stays quiet).
// `level` is evaluated twice.
#define LOG_V(level, msg)                       \
  switch (0)                                    \
  case 0:                                       \
  default:                                      \
    if (!::base::VEnabled((level), __FILE__)) { \
    } else                                      \
      ::base::LogLine(::base::Severity::kInfo, __FILE__, __LINE__, (msg), (level))
