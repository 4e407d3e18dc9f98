// The Go net/url parsing that EBS volume IDs go through (docs/migration.md §2.2):
// what it accepts, and its error texts.
#include "migration/url_path.h"

#include <gtest/gtest.h>

namespace migration {
namespace {

struct UrlCase {
  std::string name;
  std::string url;
  std::string want;        // the path, if no error
  std::string want_error;  // empty: success
};

class UrlPathOfTest : public ::testing::TestWithParam<UrlCase> {};

TEST_P(UrlPathOfTest, Parses) {
  const UrlCase& c = GetParam();
  auto path = UrlPathOf(c.url);
  if (!c.want_error.empty()) {
    ASSERT_FALSE(path.ok()) << *path;
    EXPECT_EQ(path.error().message, c.want_error);
    return;
  }
  ASSERT_TRUE(path.ok()) << path.error().message;
  EXPECT_EQ(*path, c.want);
}

INSTANTIATE_TEST_SUITE_P(
    GoNetUrl, UrlPathOfTest,
    ::testing::Values(UrlCase{"EmptyAuthority", "aws:///vol-1", "/vol-1", ""},
                      UrlCase{"NoPath", "aws://host", "", ""},
                      UrlCase{"PercentDecoded", "aws://h/a%2Fb%20c", "/a/b c", ""},
                      UrlCase{"QueryAndFragmentCut", "aws://h/p?q=/x#/f", "/p", ""},
                      UrlCase{"PortAndUserinfo", "aws://u:p%41@h:443/p", "/p", ""},
                      UrlCase{"Ipv6Host", "aws://[::1]:8/p", "/p", ""},
                      UrlCase{"ShortEscape", "aws://h/p%4", "",
                              R"(parse "aws://h/p%4": invalid URL escape "%4")"},
                      UrlCase{"ControlCharacter", "aws://h/p\n", "",
                              R"(parse "aws://h/p\n": net/url: invalid control character in URL)"},
                      UrlCase{"NonNumericPort", "aws://h:x/p", "",
                              R"(parse "aws://h:x/p": invalid port ":x" after host)"},
                      UrlCase{"BadHostCharacter", "aws://h{/p", "",
                              R"(parse "aws://h{/p": invalid character "{" in host name)"},
                      UrlCase{"AsciiEscapeInHost", "aws://h%41/p", "",
                              R"(parse "aws://h%41/p": invalid URL escape "%41")"},
                      UrlCase{"UnclosedIpv6Host", "aws://[::1/p", "",
                              R"(parse "aws://[::1/p": missing ']' in host)"},
                      UrlCase{"BadUserinfo", "aws://u{@h/p", "",
                              R"(parse "aws://u{@h/p": net/url: invalid userinfo)"},
                      UrlCase{"BadFragmentEscapeNamesTheWholeUrl", "aws://h/p#%zz", "",
                              R"(parse "aws://h/p#%zz": invalid URL escape "%zz")"}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace migration
