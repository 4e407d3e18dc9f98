// docs/attacher.md §1.1 (-v, --vmodule, --logging-format): klog's text lines and
// Kubernetes' JSON lines, verbosity gating, per-file --vmodule levels.
#include "base/log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace base {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

LogConfig Config(int verbosity, LogFormat format = LogFormat::kText,
                 std::vector<VModuleItem> vmodule = {}) {
  LogConfig config;
  config.verbosity = verbosity;
  config.format = format;
  config.vmodule = std::move(vmodule);
  return config;
}

class LogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SetLogSink([this](std::string_view line) { lines_.emplace_back(line); });
  }
  void TearDown() override {
    SetLogSink(nullptr);
    SetLogConfig({});
  }
  // The part after "] " of the only captured text line.
  std::string Body() {
    EXPECT_EQ(lines_.size(), 1u);
    if (lines_.empty()) return "";
    const std::string& line = lines_.back();
    return line.substr(line.find("] ") + 2);
  }

  std::vector<std::string> lines_;
};

TEST_F(LogTest, TextHeaderMatchesKlog) {
  LOG_INFO("hello").With("key", "value");
  LOG_WARNING("careful");
  LOG_ERROR("failed").With("err", "boom");
  ASSERT_EQ(lines_.size(), 3u);
  // Lmmdd hh:mm:ss.uuuuuu, thread id right-aligned in 7 columns, file:line.
  const std::regex header(
      R"(^([IWE])(\d\d)(\d\d) \d\d:\d\d:\d\d\.\d{6} ([ \d]{7}) log_test\.cpp:\d+\] )");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(lines_[0], m, header)) << lines_[0];
  EXPECT_EQ(m[1], "I");
  EXPECT_TRUE(std::regex_match(m[4].str(), std::regex(R"( *\d+)"))) << m[4];
  EXPECT_TRUE(std::regex_search(lines_[1], m, header) && m[1] == "W") << lines_[1];
  EXPECT_TRUE(std::regex_search(lines_[2], m, header) && m[1] == "E") << lines_[2];
  EXPECT_THAT(lines_[0], ::testing::EndsWith("] \"hello\" key=\"value\"\n"));
  EXPECT_THAT(lines_[2], ::testing::EndsWith("] \"failed\" err=\"boom\"\n"));
}

TEST_F(LogTest, TextValuesAreRenderedLikeKlog) {
  LOG_INFO("n")
      .With("int", 42)
      .With("neg", -7L)
      .With("ok", true)
      .With("f", 1.5)
      .With("big", 1e21)
      .With("tiny", 1e-7)
      .With("d", std::chrono::seconds(90));
  EXPECT_EQ(Body(), "\"n\" int=42 neg=-7 ok=true f=1.5 big=1e+21 tiny=1e-7 d=\"1m30s\"\n");
}

TEST_F(LogTest, TextQuotesSpecialCharacters) {
  LOG_INFO("say \"hi\"\tnow\n")
      .With("path", "C:\\x")
      .With("ctl", "\x01\x7f")
      .With("u", "caf\u00e9");
  EXPECT_EQ(Body(), R"("say \"hi\"\tnow\n" path="C:\\x" ctl="\x01\x7f" u="café")"
                    "\n");
}

TEST_F(LogTest, TextMultiLineValuesUseKlogBlocks) {
  LOG_INFO("m").With("text", "line 1\nline 2").With("after", "x");
  EXPECT_EQ(Body(), "\"m\" text=<\n\tline 1\n\tline 2\n > after=\"x\"\n");
  lines_.clear();
  LOG_INFO("m").With("text", "ends with newline\n");
  EXPECT_EQ(Body(), "\"m\" text=<\n\tends with newline\n >\n");
}

TEST_F(LogTest, VerbosityGatesLogV) {
  SetLogConfig(Config(2));
  int evaluated = 0;
  auto count = [&] { return ++evaluated; };
  LOG_V(2, "shown").With("n", count());
  LOG_V(3, "hidden").With("n", count());
  bool taken_else = false;
  if (evaluated == 0)
    LOG_V(3, "unbraced");
  else
    taken_else = true;  // binds to the outer if, as written
  EXPECT_TRUE(taken_else);
  EXPECT_EQ(lines_.size(), 1u);
  EXPECT_EQ(evaluated, 1) << "arguments of disabled lines are not evaluated";
  EXPECT_EQ(Verbosity(), 2);
  EXPECT_TRUE(VEnabled(0, __FILE__));
  EXPECT_FALSE(VEnabled(3, __FILE__));
}

TEST_F(LogTest, VModuleRaisesVerbosityPerFile) {
  SetLogConfig(Config(1, LogFormat::kText, {{"other", 9}, {"log_te*", 3}}));
  LOG_V(1, "global");
  LOG_V(3, "by vmodule");
  LOG_V(4, "too verbose");
  ASSERT_EQ(lines_.size(), 2u);
  EXPECT_THAT(lines_[1], HasSubstr("\"by vmodule\""));
  EXPECT_TRUE(VEnabled(9, "/src/other.cpp"));
  EXPECT_FALSE(VEnabled(2, "/src/another.cpp"));

  SetLogConfig(Config(0, LogFormat::kText, {{"log_test", 0}, {"log_*", 2}}));
  EXPECT_TRUE(VEnabled(2, __FILE__)) << "level-0 items are skipped, as klog does";
  EXPECT_FALSE(VEnabled(3, __FILE__));

  SetLogConfig({});
  EXPECT_FALSE(VEnabled(1, __FILE__)) << "a new config drops cached levels";
}

TEST_F(LogTest, JsonLinesMatchKubernetesJsonFormat) {
  SetLogConfig(Config(4, LogFormat::kJson));
  LOG_INFO("hello").With("key", "value").With("n", 3).With("ok", false).With("f", 0.25);
  LOG_V(4, "detail");
  LOG_ERROR("failed").With("err", "boom");
  LOG_WARNING("warn");
  ASSERT_EQ(lines_.size(), 4u);
  EXPECT_TRUE(std::regex_match(
      lines_[0],
      std::regex(R"(\{"ts":\d+(\.\d+)?,"caller":"base/log_test\.cpp:\d+","msg":"hello","v":0,)"
                 R"("key":"value","n":3,"ok":false,"f":0\.25\}\n)")))
      << lines_[0];
  for (const std::string& line : lines_) {
    nlohmann::json parsed = nlohmann::json::parse(line);  // throws on invalid JSON
    EXPECT_TRUE(parsed["ts"].is_number_float() || parsed["ts"].is_number_integer());
  }
  EXPECT_EQ(nlohmann::json::parse(lines_[1])["v"], 4);
  nlohmann::json error = nlohmann::json::parse(lines_[2]);
  EXPECT_FALSE(error.contains("v")) << "errors carry no verbosity";
  EXPECT_EQ(error["err"], "boom");
  EXPECT_EQ(nlohmann::json::parse(lines_[3])["v"], 0);
}

TEST_F(LogTest, JsonEscapesLikeZap) {
  SetLogConfig(Config(0, LogFormat::kJson));
  LOG_INFO("a\"b\\c\n\t\x01").With("bad", "\xff").With("multi", "x\ny").With("u", "caf\u00e9");
  ASSERT_EQ(lines_.size(), 1u);
  EXPECT_THAT(lines_[0], HasSubstr(R"("msg":"a\"b\\c\n\t\u0001")"));
  EXPECT_THAT(lines_[0], HasSubstr(R"("bad":"\ufffd","multi":"x\ny","u":"café"})"));
  EXPECT_EQ(nlohmann::json::parse(lines_[0])["msg"], "a\"b\\c\n\t\x01");
}

TEST(VModule, ParsesLikeComponentBase) {
  std::vector<VModuleItem> items;
  ASSERT_TRUE(ParseVModule("gopher*=1,foo=2,", &items).ok());
  ASSERT_TRUE(ParseVModule("bar=3", &items).ok());
  EXPECT_THAT(items,
              ElementsAre(VModuleItem{"gopher*", 1}, VModuleItem{"foo", 2}, VModuleItem{"bar", 3}));
  EXPECT_EQ(FormatVModule(items), "gopher*=1,foo=2,bar=3");

  const struct {
    const char* text;
    const char* message;
  } errors[] = {
      {"gopher*", R"("gopher*" does not have the pattern=N format)"},
      {"=1", R"("=1" does not have the pattern=N format)"},
      {"a=", R"("a=" does not have the pattern=N format)"},
      {"a=1=2", R"("a=1=2" does not have the pattern=N format)"},
      {"foo=-1",
       R"(parsing verbosity in "foo=-1": strconv.ParseUint: parsing "-1": invalid syntax)"},
      {"x=2147483648",
       R"(parsing verbosity in "x=2147483648": strconv.ParseUint: parsing "2147483648": value out of range)"},
  };
  for (const auto& e : errors) {
    std::vector<VModuleItem> ignored;
    Status s = ParseVModule(e.text, &ignored);
    ASSERT_FALSE(s.ok()) << e.text;
    EXPECT_EQ(s.error().message, e.message);
  }
}

TEST(VModule, GlobMatchesLikeFilepathMatch) {
  const struct {
    const char* pattern;
    const char* name;
    bool want;
  } cases[] = {
      {"abc", "abc", true},     {"*", "abc", true},
      {"*c", "abc", true},      {"a*", "a", true},
      {"a*b*c", "axbyc", true}, {"a*/b", "abc/b", true},
      {"a*b", "a/b", false},    {"a?c", "abc", true},
      {"a?c", "a/c", false},    {"?", "", false},
      {"[a-c]x", "bx", true},   {"[^a-c]x", "dx", true},
      {"[^a-c]x", "bx", false}, {"[\\]a]", "]", true},
      {"\\*", "*", true},       {"\\*", "x", false},
      {"[]a]", "]", false},     {"[", "a", false},
      {"[a-", "a", false},      {"a\\", "a", false},
      {"ab", "abc", false},     {"controller*", "controller_test", true},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(GlobMatch(c.pattern, c.name), c.want) << c.pattern << " vs " << c.name;
  }
}

TEST(VModule, MatchesBaseNameWithoutExtension) {
  std::vector<VModuleItem> items = {{"csi_handler", 4}, {"contr?ller", 5}, {"x/y", 6}};
  EXPECT_EQ(VModuleLevel(items, "/src/attacher/csi_handler.cpp"), 4);
  EXPECT_EQ(VModuleLevel(items, "/src/attacher/controller.h"), 5);
  EXPECT_EQ(VModuleLevel(items, "controller.cpp"), 5);
  EXPECT_EQ(VModuleLevel(items, "/src/x/y.cpp"), 0) << "directories are not matched";
  EXPECT_EQ(VModuleLevel(items, "/src/csi_handler_test.cpp"), 0);
}

TEST(FlushAndExit, ExitsWithCode) {
  EXPECT_EXIT(FlushAndExit(3), ::testing::ExitedWithCode(3), "");
}

}  // namespace
}  // namespace base
