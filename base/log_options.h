// The logging flags upstream gets from Kubernetes' component-base
// (logsapi.AddGoFlags) and their validation (logsapi.ValidateAndApply).
//
// Flags: --logging-format, --log-flush-frequency, -v, --vmodule,
// --log-{text,json}-split-stream, --log-{text,json}-info-buffer-size, with
// upstream's help texts. Validation errors read like upstream's field errors
// (`vmodule: Forbidden: Only supported for text log format`; several are
// joined as `[a, b]`) and mean exit 1 at startup. The split-stream and
// buffer-size options parse but never validate: they need the
// LoggingAlphaOptions gate, which no flag can enable.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "base/flags.h"
#include "base/log.h"
#include "base/result.h"

namespace base {

struct LoggingOptions {
  std::string format = "text";
  std::chrono::nanoseconds flush_frequency = std::chrono::seconds(5);
  int verbosity = 0;  // 0..2^31-1
  std::vector<VModuleItem> vmodule = {};
  bool text_split_stream = false;
  bool json_split_stream = false;
  // Byte quantities as given ("0", "512", "2Ki", "1.5M"); only zero passes.
  std::string text_info_buffer_size = "0";
  std::string json_info_buffer_size = "0";
};

// Registers the flags listed above, writing into *options (which must
// outlive `flags`).
void RegisterLoggingFlags(FlagSet* flags, LoggingOptions* options);

// "text" or "json"; anything else is an error naming the permitted formats.
Result<LogFormat> ParseLogFormat(std::string_view name);

// Checks `options` the way upstream does, plus --log-flush-frequency > 0
// (upstream panics on it).
Status ValidateLoggingOptions(const LoggingOptions& options);

// Validates, then installs format, -v and --vmodule via SetLogConfig.
Status ValidateAndApplyLoggingOptions(const LoggingOptions& options);

}  // namespace base
