// docs/attacher.md §1.1: the component-base logging flags and their validation
// (exit 1 at startup on any error).
#include "base/log_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <sstream>

namespace base {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class LoggingOptionsTest : public ::testing::Test {
 protected:
  LoggingOptionsTest() : flags_("csi-attacher", &output_) {
    RegisterLoggingFlags(&flags_, &options_);
  }
  void TearDown() override { SetLogConfig({}); }

  std::ostringstream output_;
  LoggingOptions options_;
  FlagSet flags_;
};

TEST_F(LoggingOptionsTest, FlagsFillOptions) {
  ASSERT_TRUE(flags_
                  .Parse({"-v=5", "--vmodule=csi_handler=6,", "--vmodule", "conn*=7",
                          "--logging-format=json", "--log-flush-frequency=2s",
                          "--log-json-info-buffer-size=2Ki", "--log-text-split-stream"})
                  .ok())
      << output_.str();
  EXPECT_EQ(options_.verbosity, 5);
  EXPECT_THAT(options_.vmodule,
              ElementsAre(VModuleItem{"csi_handler", 6}, VModuleItem{"conn*", 7}));
  EXPECT_EQ(options_.format, "json");
  EXPECT_EQ(options_.flush_frequency, std::chrono::seconds(2));
  EXPECT_EQ(options_.json_info_buffer_size, "2Ki");
  EXPECT_TRUE(options_.text_split_stream);
}

TEST_F(LoggingOptionsTest, BadFlagValuesAreUsageErrors) {
  const struct {
    const char* arg;
    const char* message;
  } cases[] = {
      {"-v=-1",
       R"(invalid value "-1" for flag -v: strconv.ParseUint: parsing "-1": invalid syntax)"},
      {"-v=0x1",
       R"(invalid value "0x1" for flag -v: strconv.ParseUint: parsing "0x1": invalid syntax)"},
      {"-v=2147483648",
       R"(invalid value "2147483648" for flag -v: strconv.ParseUint: parsing "2147483648": value out of range)"},
      {"--vmodule=x",
       R"(invalid value "x" for flag -vmodule: "x" does not have the pattern=N format)"},
      {"--log-text-info-buffer-size=lots",
       R"(invalid value "lots" for flag -log-text-info-buffer-size: quantities must match the )"
       R"(regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$')"},
      {"--log-json-info-buffer-size=1K",
       R"(invalid value "1K" for flag -log-json-info-buffer-size: unable to parse quantity's suffix)"},
      {"--log-flush-frequency=5",
       R"(invalid value "5" for flag -log-flush-frequency: parse error)"},
  };
  for (const auto& c : cases) {
    Status s = flags_.Parse({c.arg});
    ASSERT_FALSE(s.ok()) << c.arg;
    EXPECT_EQ(s.error().code, kExitUsageError);
    EXPECT_EQ(s.error().message, c.message);
  }
}

TEST_F(LoggingOptionsTest, QuantitiesAcceptKubernetesSyntax) {
  for (const char* q :
       {"0", "512", "1k", "2Ki", "3M", "1.5Gi", "1e3", "1E+3", "-1m", ".5", "+0", "0.000"}) {
    EXPECT_TRUE(flags_.Parse({std::string("--log-text-info-buffer-size=") + q}).ok()) << q;
  }
}

TEST_F(LoggingOptionsTest, UsageShowsUpstreamHelp) {
  std::string usage = flags_.Usage();
  EXPECT_THAT(usage, HasSubstr("  -logging-format string\n    \tSets the log format. Permitted "
                               "formats: \"json\" (gated by LoggingBetaOptions), \"text\". "
                               "(default \"text\")\n"));
  EXPECT_THAT(usage, HasSubstr("  -log-flush-frequency duration\n    \tMaximum number of seconds "
                               "between log flushes (default 5s)\n"));
  EXPECT_THAT(usage, HasSubstr("  -v value\n    \tnumber for the log level verbosity\n"));
  EXPECT_THAT(usage, HasSubstr("  -vmodule value\n    \tcomma-separated list of pattern=N "
                               "settings for file-filtered logging (only works for text log "
                               "format)\n"));
  EXPECT_THAT(usage, HasSubstr("  -log-text-split-stream\n    \t[Alpha] In text format, write "
                               "error messages to stderr and info messages to stdout. The "
                               "default is to write a single stream to stdout. Enable the "
                               "LoggingAlphaOptions feature gate to use this.\n"));
  EXPECT_THAT(usage, HasSubstr("  -log-json-info-buffer-size value\n    \t[Alpha] In JSON format "
                               "with split output streams, the info messages can be buffered"));
  EXPECT_THAT(usage, ::testing::Not(HasSubstr("(default 0)")));
}

TEST(ParseLogFormat, KnowsTextAndJson) {
  EXPECT_EQ(*ParseLogFormat("text"), LogFormat::kText);
  EXPECT_EQ(*ParseLogFormat("json"), LogFormat::kJson);
  Result<LogFormat> bad = ParseLogFormat("xml");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            R"(unsupported log format "xml", permitted formats: "json", "text")");
}

TEST(ValidateLoggingOptions, DefaultsAreValid) {
  EXPECT_TRUE(ValidateLoggingOptions({}).ok());
  LoggingOptions json;
  json.format = "json";
  EXPECT_TRUE(ValidateLoggingOptions(json).ok());
}

TEST(ValidateLoggingOptions, ReportsUpstreamFieldErrors) {
  const struct {
    std::function<void(LoggingOptions&)> change;
    const char* message;
  } cases[] = {
      {[](LoggingOptions& o) { o.format = "xml"; },
       R"(format: Invalid value: "xml": Unsupported log format)"},
      {[](LoggingOptions& o) {
         o.format = "json";
         o.vmodule = {{"a", 1}};
       },
       "vmodule: Forbidden: Only supported for text log format"},
      {[](LoggingOptions& o) { o.text_split_stream = true; },
       "options.text.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled"},
      {[](LoggingOptions& o) { o.json_split_stream = true; },
       "options.json.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled"},
      {[](LoggingOptions& o) { o.text_info_buffer_size = "1Ki"; },
       "options.text.infoBufferSize: Forbidden: Feature LoggingAlphaOptions is disabled"},
      {[](LoggingOptions& o) { o.json_info_buffer_size = "0.5"; },
       "options.json.infoBufferSize: Forbidden: Feature LoggingAlphaOptions is disabled"},
      {[](LoggingOptions& o) { o.flush_frequency = std::chrono::seconds(0); },
       R"(flushFrequency: Invalid value: "0s": Must be greater than zero)"},
      {[](LoggingOptions& o) { o.flush_frequency = std::chrono::seconds(-1); },
       R"(flushFrequency: Invalid value: "-1s": Must be greater than zero)"},
      {[](LoggingOptions& o) {
         o.format = "json";
         o.vmodule = {{"a", 1}};
         o.json_split_stream = true;
       },
       "[vmodule: Forbidden: Only supported for text log format, options.json.splitStream: "
       "Forbidden: Feature LoggingAlphaOptions is disabled]"},
  };
  for (const auto& c : cases) {
    LoggingOptions options;
    c.change(options);
    Status s = ValidateLoggingOptions(options);
    ASSERT_FALSE(s.ok()) << c.message;
    EXPECT_EQ(s.error().message, c.message);
  }
  LoggingOptions zero_buffer;
  zero_buffer.text_info_buffer_size = "0.0";
  EXPECT_TRUE(ValidateLoggingOptions(zero_buffer).ok());
}

TEST(ValidateAndApplyLoggingOptions, InstallsConfigOnlyWhenValid) {
  LoggingOptions options;
  options.verbosity = 3;
  options.vmodule = {{"x", 7}};
  ASSERT_TRUE(ValidateAndApplyLoggingOptions(options).ok());
  EXPECT_EQ(Verbosity(), 3);
  EXPECT_TRUE(VEnabled(7, "/a/x.cpp"));
  options.format = "yaml";
  options.verbosity = 9;
  EXPECT_FALSE(ValidateAndApplyLoggingOptions(options).ok());
  EXPECT_EQ(Verbosity(), 3);
  SetLogConfig({});
}

}  // namespace
}  // namespace base
