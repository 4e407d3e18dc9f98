#include "base/log_options.h"

#include <memory>

#include "base/duration.h"
#include "base/quantity.h"
#include "base/strconv.h"

namespace base {
namespace {

// -v: decimal only, at most 2^31-1, strconv's error text as is.
class VerbosityValue final : public FlagValue {
 public:
  explicit VerbosityValue(int* target) : target_(target) {}
  Status Set(std::string_view text) override {
    Result<uint64_t> level = ParseUint(text, 10, 31);
    if (!level.ok()) return level.error();
    *target_ = static_cast<int>(*level);
    return Status::Ok();
  }
  std::string String() const override { return std::to_string(*target_); }
  std::string ZeroString() const override { return "0"; }

 private:
  int* target_;
};

class VModuleValue final : public FlagValue {
 public:
  explicit VModuleValue(std::vector<VModuleItem>* target) : target_(target) {}
  Status Set(std::string_view text) override { return ParseVModule(text, target_); }
  std::string String() const override { return FormatVModule(*target_); }

 private:
  std::vector<VModuleItem>* target_;
};

class QuantityValue final : public FlagValue {
 public:
  explicit QuantityValue(std::string* target) : target_(target) {}
  Status Set(std::string_view text) override {
    if (Result<bool> zero = QuantityIsZero(text); !zero.ok()) return zero.error();
    *target_ = std::string(text);
    return Status::Ok();
  }
  std::string String() const override { return *target_; }
  std::string ZeroString() const override { return "0"; }

 private:
  std::string* target_;
};

bool IsNonZeroQuantity(const std::string& quantity) {
  Result<bool> zero = QuantityIsZero(quantity);
  return zero.ok() && !*zero;
}

}  // namespace

void RegisterLoggingFlags(FlagSet* flags, LoggingOptions* options) {
  constexpr const char* kAlphaGate = " Enable the LoggingAlphaOptions feature gate to use this.";
  constexpr const char* kBufferSize =
      " with split output streams, the info messages can be buffered for a while to increase "
      "performance. The default value of zero bytes disables buffering. The size can be "
      "specified as number of bytes (512), multiples of 1000 (1K), multiples of 1024 (2Ki), or "
      "powers of those (3M, 4G, 5Mi, 6Gi).";
  constexpr const char* kSplitStream =
      " format, write error messages to stderr and info messages to stdout. The default is to "
      "write a single stream to stdout.";
  flags->String("logging-format", &options->format, options->format,
                "Sets the log format. Permitted formats: \"json\" (gated by LoggingBetaOptions), "
                "\"text\".");
  flags->Duration("log-flush-frequency", &options->flush_frequency, options->flush_frequency,
                  "Maximum number of seconds between log flushes");
  flags->Var("v", std::make_unique<VerbosityValue>(&options->verbosity),
             "number for the log level verbosity");
  flags->Var("vmodule", std::make_unique<VModuleValue>(&options->vmodule),
             "comma-separated list of pattern=N settings for file-filtered logging (only works "
             "for text log format)");
  flags->Bool("log-text-split-stream", &options->text_split_stream, false,
              std::string("[Alpha] In text") + kSplitStream + kAlphaGate);
  flags->Var("log-text-info-buffer-size",
             std::make_unique<QuantityValue>(&options->text_info_buffer_size),
             std::string("[Alpha] In text format") + kBufferSize + kAlphaGate);
  flags->Bool("log-json-split-stream", &options->json_split_stream, false,
              std::string("[Alpha] In JSON") + kSplitStream + kAlphaGate);
  flags->Var("log-json-info-buffer-size",
             std::make_unique<QuantityValue>(&options->json_info_buffer_size),
             std::string("[Alpha] In JSON format") + kBufferSize + kAlphaGate);
}

Result<LogFormat> ParseLogFormat(std::string_view name) {
  if (name == "text") return LogFormat::kText;
  if (name == "json") return LogFormat::kJson;
  return Error("unsupported log format " + GoQuote(name) +
               ", permitted formats: \"json\", \"text\"");
}

Status ValidateLoggingOptions(const LoggingOptions& options) {
  std::vector<std::string> errors;
  if (!ParseLogFormat(options.format).ok()) {
    errors.push_back("format: Invalid value: " + GoQuote(options.format) +
                     ": Unsupported log format");
  }
  if (!options.vmodule.empty() && options.format != "text") {
    errors.push_back("vmodule: Forbidden: Only supported for text log format");
  }
  const std::string disabled = ": Forbidden: Feature LoggingAlphaOptions is disabled";
  if (options.text_split_stream) errors.push_back("options.text.splitStream" + disabled);
  if (IsNonZeroQuantity(options.text_info_buffer_size)) {
    errors.push_back("options.text.infoBufferSize" + disabled);
  }
  if (options.json_split_stream) errors.push_back("options.json.splitStream" + disabled);
  if (IsNonZeroQuantity(options.json_info_buffer_size)) {
    errors.push_back("options.json.infoBufferSize" + disabled);
  }
  if (options.flush_frequency.count() <= 0) {
    errors.push_back(
        "flushFrequency: Invalid value: " + GoQuote(FormatDuration(options.flush_frequency)) +
        ": Must be greater than zero");
  }
  if (errors.empty()) return Status::Ok();
  if (errors.size() == 1) return Error(errors[0]);
  std::string joined;
  for (const std::string& e : errors) joined += (joined.empty() ? "" : ", ") + e;
  return Error("[" + joined + "]");
}

Status ValidateAndApplyLoggingOptions(const LoggingOptions& options) {
  if (Status s = ValidateLoggingOptions(options); !s.ok()) return s;
  SetLogConfig({options.verbosity, *ParseLogFormat(options.format), options.vmodule});
  return Status::Ok();
}

}  // namespace base
