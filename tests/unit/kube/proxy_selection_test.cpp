#include "kube/client/proxy_selection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kube {
namespace {

using ::testing::HasSubstr;

TEST(NoProxyTest, StarExemptsEverything) {
  EXPECT_TRUE(NoProxyMatches("*", "api.example.com", 443));
  EXPECT_TRUE(NoProxyMatches(" foo.com , * ", "10.0.0.1", 6443));
}

TEST(NoProxyTest, DomainMatchesItselfAndSubdomains) {
  EXPECT_TRUE(NoProxyMatches("example.com", "example.com", 443));
  EXPECT_TRUE(NoProxyMatches("example.com", "api.example.com", 443));
  EXPECT_TRUE(NoProxyMatches("Example.COM", "api.example.com", 443));
  EXPECT_FALSE(NoProxyMatches("example.com", "badexample.com", 443));
  EXPECT_FALSE(NoProxyMatches("example.com", "example.com.evil", 443));
}

TEST(NoProxyTest, LeadingDotOrStarMatchesSubdomainsOnly) {
  EXPECT_TRUE(NoProxyMatches(".example.com", "api.example.com", 443));
  EXPECT_FALSE(NoProxyMatches(".example.com", "example.com", 443));
  EXPECT_TRUE(NoProxyMatches("*.example.com", "a.b.example.com", 443));
  EXPECT_FALSE(NoProxyMatches("*.example.com", "example.com", 443));
}

TEST(NoProxyTest, PortRestrictsTheEntry) {
  EXPECT_TRUE(NoProxyMatches("example.com:6443", "example.com", 6443));
  EXPECT_FALSE(NoProxyMatches("example.com:6443", "example.com", 443));
  EXPECT_TRUE(NoProxyMatches("10.1.2.3:6443", "10.1.2.3", 6443));
  EXPECT_FALSE(NoProxyMatches("10.1.2.3:6443", "10.1.2.3", 443));
  EXPECT_TRUE(NoProxyMatches("[fd00::1]:6443", "fd00::1", 6443));
}

TEST(NoProxyTest, AddressesAndBlocks) {
  EXPECT_TRUE(NoProxyMatches("10.96.0.1", "10.96.0.1", 443));
  EXPECT_FALSE(NoProxyMatches("10.96.0.1", "10.96.0.2", 443));
  EXPECT_TRUE(NoProxyMatches("10.0.0.0/8", "10.96.0.1", 443));
  EXPECT_FALSE(NoProxyMatches("10.0.0.0/8", "11.0.0.1", 443));
  EXPECT_TRUE(NoProxyMatches("192.168.4.0/22", "192.168.7.255", 443));
  EXPECT_FALSE(NoProxyMatches("192.168.4.0/22", "192.168.8.0", 443));
  EXPECT_TRUE(NoProxyMatches("fd00::/8", "fd12::3", 443));
  EXPECT_TRUE(NoProxyMatches("fd00::1", "fd00:0::1", 443));
  // A block never matches a name, nor a bad block anything.
  EXPECT_FALSE(NoProxyMatches("10.0.0.0/8", "ten.example", 443));
  EXPECT_FALSE(NoProxyMatches("10.0.0.0/33", "10.0.0.1", 443));
}

TEST(NoProxyTest, EmptyListExemptsNothing) {
  EXPECT_FALSE(NoProxyMatches("", "example.com", 443));
  EXPECT_FALSE(NoProxyMatches(" , ,", "example.com", 443));
}

HttpUrl Url(std::string_view text) {
  auto url = HttpUrl::Parse(text);
  EXPECT_TRUE(url.ok()) << text;
  return url.ok() ? *url : HttpUrl();
}

TEST(SelectProxyTest, SchemePicksTheVariable) {
  ProxyEnvironment env{.https_proxy = "http://secure-proxy:3128",
                       .http_proxy = "http://plain-proxy:8080",
                       .no_proxy = ""};
  auto https = SelectProxy(env, Url("https://api.example.com:6443"));
  ASSERT_TRUE(https.ok());
  ASSERT_TRUE(https->has_value());
  EXPECT_EQ((*https)->host, "secure-proxy");
  EXPECT_EQ((*https)->port, 3128);
  auto http = SelectProxy(env, Url("http://api.example.com"));
  ASSERT_TRUE(http.ok());
  ASSERT_TRUE(http->has_value());
  EXPECT_EQ((*http)->host, "plain-proxy");
}

TEST(SelectProxyTest, NoProxyAndLoopbackGoDirect) {
  ProxyEnvironment env{
      .https_proxy = "proxy:3128", .http_proxy = "", .no_proxy = ".svc,10.0.0.0/8"};
  for (const char* server :
       {"https://kubernetes.default.svc", "https://10.96.0.1", "https://127.0.0.1:6443",
        "https://[::1]:6443", "https://localhost:6443"}) {
    auto proxy = SelectProxy(env, Url(server));
    ASSERT_TRUE(proxy.ok()) << server;
    EXPECT_FALSE(proxy->has_value()) << server;
  }
  auto proxied = SelectProxy(env, Url("https://api.example.com"));
  ASSERT_TRUE(proxied.ok());
  ASSERT_TRUE(proxied->has_value());
  EXPECT_EQ((*proxied)->scheme, "http");  // a proxy without a scheme is http://
}

TEST(SelectProxyTest, UnsupportedProxySchemesAreErrorsWithoutCredentials) {
  ProxyEnvironment env{
      .https_proxy = "socks5://user:secret@proxy:1080", .http_proxy = "", .no_proxy = ""};
  auto proxy = SelectProxy(env, Url("https://api.example.com"));
  ASSERT_FALSE(proxy.ok());
  EXPECT_THAT(proxy.error().message, HasSubstr("HTTPS_PROXY"));
  EXPECT_THAT(proxy.error().message, ::testing::Not(HasSubstr("secret")));
  env.https_proxy = "https://proxy:443";
  EXPECT_THAT(SelectProxy(env, Url("https://api.example.com")).error().message,
              HasSubstr("only http:// ones"));
}

TEST(SelectProxyTest, UserinfoIsDecodedForProxyAuthorization) {
  ProxyEnvironment env{
      .https_proxy = "http://us%40er:p%3Ass@proxy:3128", .http_proxy = "", .no_proxy = ""};
  auto proxy = SelectProxy(env, Url("https://api.example.com"));
  ASSERT_TRUE(proxy.ok());
  ASSERT_TRUE(proxy->has_value());
  EXPECT_EQ((*proxy)->userinfo, "us@er:p:ss");
}

TEST(HttpUrlTest, PartsDefaultsAndIpv6) {
  HttpUrl url = Url("HTTPS://[FD00::1]:6443/prefix");
  EXPECT_EQ(url.scheme, "https");
  EXPECT_EQ(url.host, "fd00::1");
  EXPECT_EQ(url.port, 6443);
  EXPECT_EQ(url.path, "/prefix");
  EXPECT_EQ(url.Authority(), "[fd00::1]:6443");
  EXPECT_EQ(Url("http://example.com").port, 80);
  EXPECT_EQ(Url("https://example.com").HostHeader(), "example.com");
  EXPECT_EQ(Url("https://example.com:6443").HostHeader(), "example.com:6443");
  EXPECT_FALSE(HttpUrl::Parse("ftp://example.com").ok());
  EXPECT_FALSE(HttpUrl::Parse("https://example.com:99999").ok());
  EXPECT_FALSE(HttpUrl::Parse("https://:443").ok());
}

}  // namespace
}  // namespace kube
