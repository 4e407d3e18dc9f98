// LogCapture: every log line written while it lives (base/log.h's sink), at
// the verbosity and format asked for, for tests that assert what a
// component logged. One at a time: it owns the process's log configuration.
// Header-only: unit test binaries that do not link the test support library
// use it too.
#pragma once

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/log.h"

namespace testsupport {

// Captures every log line written while it lives, at `verbosity`.
class LogCapture {
 public:
  explicit LogCapture(int verbosity = 0, base::LogFormat format = base::LogFormat::kText) {
    base::LogConfig config;
    config.verbosity = verbosity;
    config.format = format;
    base::SetLogConfig(config);
    base::SetLogSink([this](std::string_view line) {
      std::lock_guard lock(mu_);
      lines_.emplace_back(line);
    });
  }
  ~LogCapture() {
    base::SetLogSink(nullptr);
    base::SetLogConfig({});
  }

  std::vector<std::string> lines() const {
    std::lock_guard lock(mu_);
    return lines_;
  }
  // The lines containing `needle`.
  std::vector<std::string> Grep(std::string_view needle) const {
    std::vector<std::string> found;
    for (const std::string& line : lines()) {
      if (line.find(needle) != std::string::npos) found.push_back(line);
    }
    return found;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> lines_;
};

}  // namespace testsupport
