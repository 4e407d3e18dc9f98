#include "base/log.h"

#include <fmt/format.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <unordered_map>

#include "base/duration.h"
#include "base/strconv.h"

namespace base {
namespace {

std::atomic<int> g_verbosity{0};
std::atomic<LogFormat> g_format{LogFormat::kText};
// True while some --vmodule item has a level > 0; keeps VEnabled to one
// atomic load in the common case.
std::atomic<bool> g_vmodule_active{false};

struct VModuleState {
  std::mutex mu;
  std::vector<VModuleItem> items;               // guarded by mu
  std::unordered_map<const char*, int> levels;  // per __FILE__ pointer; guarded by mu
};
VModuleState& VModule() {
  static VModuleState state;
  return state;
}

std::mutex& SinkMutex() {
  static std::mutex mu;
  return mu;
}
LogSink& Sink() {
  static LogSink sink;
  return sink;
}

std::string_view BaseName(std::string_view path) { return path.substr(path.find_last_of('/') + 1); }

// zap's ShortCallerEncoder keeps the last directory: "dir/file.cpp".
std::string_view TrimmedPath(std::string_view path) {
  size_t last = path.find_last_of('/');
  if (last == std::string_view::npos || last == 0) return path;
  size_t previous = path.find_last_of('/', last - 1);
  return previous == std::string_view::npos ? path : path.substr(previous + 1);
}

char SeverityLetter(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return 'I';
    case Severity::kWarning:
      return 'W';
    case Severity::kError:
      return 'E';
    case Severity::kFatal:
      return 'F';
  }
  return 'I';
}

// A JSON string as zap escapes it: `\n \r \t \" \\` by name, other control
// bytes as \u00XX, invalid UTF-8 as \ufffd, everything else verbatim.
void AppendJsonString(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  while (!s.empty()) {
    unsigned char b = s[0];
    size_t width = 1;
    if (b >= 0x80) {
      char32_t r = DecodeRune(s, &width);
      if (r == 0xFFFD && width == 1) {
        *out += "\\ufffd";
      } else {
        out->append(s.data(), width);
      }
    } else if (b == '"' || b == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(b));
    } else if (b == '\n') {
      *out += "\\n";
    } else if (b == '\r') {
      *out += "\\r";
    } else if (b == '\t') {
      *out += "\\t";
    } else if (b < 0x20) {
      *out += "\\u00";
      out->push_back(kHex[b >> 4]);
      out->push_back(kHex[b & 0xF]);
    } else {
      out->push_back(static_cast<char>(b));
    }
    s.remove_prefix(width);
  }
  out->push_back('"');
}

// klog's text value: Go-quoted on one line, or a tab-indented `=<` block
// closed by " >" when the value spans lines.
void AppendTextString(std::string* out, std::string_view value) {
  if (value.find('\n') == std::string_view::npos) {
    out->push_back('=');
    *out += GoQuote(value);
    return;
  }
  *out += "=<\n";
  for (size_t nl; (nl = value.find('\n')) != std::string_view::npos;) {
    out->push_back('\t');
    out->append(value.substr(0, nl + 1));
    value.remove_prefix(nl + 1);
  }
  if (!value.empty()) {
    out->push_back('\t');
    out->append(value);
    out->push_back('\n');
  }
  *out += " >";
}

// klog's text format renders numbers through encoding/json.
std::string JsonEncodingFloat(double f) {
  if (!std::isfinite(f)) {
    return "\"<internal error: json: unsupported value: " + FormatFloat(f, 'g') + ">\"";
  }
  double magnitude = std::fabs(f);
  if (magnitude == 0 || (magnitude >= 1e-6 && magnitude < 1e21)) return FormatFloat(f, 'f');
  std::string s = FormatFloat(f, 'e');
  // encoding/json shortens "e-07" to "e-7".
  size_t n = s.size();
  if (n >= 4 && s[n - 4] == 'e' && s[n - 3] == '-' && s[n - 2] == '0') s.erase(n - 2, 1);
  return s;
}

int VModuleLevelFor(const char* file) {
  VModuleState& state = VModule();
  std::lock_guard lock(state.mu);
  auto [it, inserted] = state.levels.try_emplace(file, 0);
  if (inserted) it->second = VModuleLevel(state.items, file);
  return it->second;
}

void Emit(std::string_view line) {
  std::lock_guard lock(SinkMutex());
  if (Sink()) {
    Sink()(line);
  } else {
    std::fwrite(line.data(), 1, line.size(), stderr);
  }
}

}  // namespace

void SetLogConfig(const LogConfig& config) {
  {
    VModuleState& state = VModule();
    std::lock_guard lock(state.mu);
    state.items = config.vmodule;
    state.levels.clear();
    bool active = false;
    for (const VModuleItem& item : config.vmodule) active = active || item.level > 0;
    g_vmodule_active = active;
  }
  g_verbosity = config.verbosity;
  g_format = config.format;
}

int Verbosity() { return g_verbosity.load(std::memory_order_relaxed); }

bool VEnabled(int level, const char* file) {
  if (level <= g_verbosity.load(std::memory_order_relaxed)) return true;
  if (!g_vmodule_active.load(std::memory_order_relaxed)) return false;
  return level <= VModuleLevelFor(file);
}

void SetLogSink(LogSink sink) {
  std::lock_guard lock(SinkMutex());
  Sink() = std::move(sink);
}

void FlushAndExit(int code) {
  std::fflush(nullptr);
  std::_Exit(code);
}

LogLine::LogLine(Severity severity, const char* file, int line, std::string_view message,
                 int v_level)
    : severity_(severity),
      file_(file),
      line_(line),
      v_level_(v_level),
      format_(g_format.load(std::memory_order_relaxed)),
      message_(message) {}

LogLine& LogLine::With(std::string_view key, std::string_view value) {
  if (format_ == LogFormat::kJson) {
    fields_.push_back(',');
    AppendJsonString(&fields_, key);
    fields_.push_back(':');
    AppendJsonString(&fields_, value);
  } else {
    fields_.push_back(' ');
    fields_ += key;
    AppendTextString(&fields_, value);
  }
  return *this;
}

LogLine& LogLine::With(std::string_view key, bool value) {
  return WithRaw(key, value ? "true" : "false", value ? "true" : "false");
}

LogLine& LogLine::With(std::string_view key, std::chrono::nanoseconds value) {
  return With(key, FormatDuration(value));
}

LogLine& LogLine::WithFloat(std::string_view key, double value) {
  // zap writes non-finite floats as strings.
  std::string json =
      std::isfinite(value) ? FormatFloat(value, 'f') : GoQuote(FormatFloat(value, 'g'));
  return WithRaw(key, JsonEncodingFloat(value), json);
}

LogLine& LogLine::WithRaw(std::string_view key, std::string_view text, std::string_view json) {
  if (format_ == LogFormat::kJson) {
    fields_.push_back(',');
    AppendJsonString(&fields_, key);
    fields_.push_back(':');
    fields_ += json;
  } else {
    fields_.push_back(' ');
    fields_ += key;
    fields_.push_back('=');
    fields_ += text;
  }
  return *this;
}

LogLine::~LogLine() {
  auto now = std::chrono::system_clock::now();
  std::string line;
  if (format_ == LogFormat::kJson) {
    auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch());
    line =
        R"({"ts":)" + FormatFloat(static_cast<double>(nanos.count()) / 1e6, 'f') + R"(,"caller":)";
    AppendJsonString(&line, fmt::format("{}:{}", TrimmedPath(file_), line_));
    line += R"(,"msg":)";
    AppendJsonString(&line, message_);
    // zapr adds the verbosity to info lines only.
    if (severity_ == Severity::kInfo || severity_ == Severity::kWarning) {
      line += fmt::format(R"(,"v":{})", v_level_);
    }
    line += fields_;
    line += "}\n";
  } else {
    std::time_t secs = std::chrono::system_clock::to_time_t(now);
    auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
        1000000;
    std::tm tm{};
    localtime_r(&secs, &tm);
    line = fmt::format("{}{:02}{:02} {:02}:{:02}:{:02}.{:06} {:>7} {}:{}] {}{}\n",
                       SeverityLetter(severity_), tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                       tm.tm_sec, micros, static_cast<long>(::syscall(SYS_gettid)), BaseName(file_),
                       line_, GoQuote(message_), fields_);
  }
  Emit(line);
}

}  // namespace base
