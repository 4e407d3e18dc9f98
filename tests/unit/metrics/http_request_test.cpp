// Reading request heads for the HTTP endpoint: paths, keep-alive, limits.
#include "metrics/http_request.h"

#include <gtest/gtest.h>

#include <string>

namespace metrics {
namespace {

HttpRequestHead Parsed(const std::string& input, size_t limit = 1024) {
  RequestHeadParse parsed = ParseRequestHead(input, limit);
  EXPECT_TRUE(std::holds_alternative<HttpRequestHead>(parsed)) << input;
  if (!std::holds_alternative<HttpRequestHead>(parsed)) return {};
  return std::get<HttpRequestHead>(parsed);
}

template <class Outcome>
bool Is(const std::string& input, size_t limit = 1024) {
  return std::holds_alternative<Outcome>(ParseRequestHead(input, limit));
}

TEST(HttpRequestTest, MethodPathWithoutQueryAndHeadLength) {
  const std::string head = "HEAD /metrics?name[]=x HTTP/1.1\r\nHost: a\r\n\r\n";
  HttpRequestHead parsed = Parsed(head + "GET /next HTTP/1.1\r\n");
  EXPECT_EQ(parsed.method, "HEAD");
  EXPECT_EQ(parsed.path, "/metrics");
  EXPECT_TRUE(parsed.keep_alive);
  EXPECT_EQ(parsed.head_bytes, head.size());
}

TEST(HttpRequestTest, BareLineFeedsAreAccepted) {
  HttpRequestHead parsed = Parsed("GET /m HTTP/1.1\nHost: a\n\nrest");
  EXPECT_EQ(parsed.path, "/m");
  EXPECT_EQ(parsed.head_bytes, 25u);
}

TEST(HttpRequestTest, KeepAliveFollowsVersionConnectionAndBody) {
  EXPECT_TRUE(Parsed("GET / HTTP/1.1\r\n\r\n").keep_alive);
  EXPECT_FALSE(Parsed("GET / HTTP/1.1\r\nConnection: Close\r\n\r\n").keep_alive);
  EXPECT_FALSE(Parsed("GET / HTTP/1.1\r\nconnection: upgrade, close\r\n\r\n").keep_alive);
  EXPECT_FALSE(Parsed("GET / HTTP/1.0\r\n\r\n").keep_alive);
  EXPECT_TRUE(Parsed("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").keep_alive);
  EXPECT_TRUE(Parsed("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n").keep_alive);
  EXPECT_FALSE(Parsed("POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc").keep_alive);
  EXPECT_FALSE(Parsed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n").keep_alive);
}

TEST(HttpRequestTest, IncompleteUntilTheBlankLine) {
  EXPECT_TRUE(Is<HeadIncomplete>(""));
  EXPECT_TRUE(Is<HeadIncomplete>("GET /metrics HT"));
  EXPECT_TRUE(Is<HeadIncomplete>("GET /metrics HTTP/1.1\r\nHost: a\r\n"));
}

TEST(HttpRequestTest, TooLargeOnceTheLimitPassesWithoutAWholeHead) {
  const std::string line = "GET / HTTP/1.1\r\n";
  std::string exactly_limit = line + "X: " + std::string(100 - line.size() - 7, 'a') + "\r\n\r\n";
  ASSERT_EQ(exactly_limit.size(), 100u);
  EXPECT_EQ(Parsed(exactly_limit, 100).head_bytes, 100u);
  EXPECT_TRUE(Is<HeadTooLarge>(exactly_limit, 99));
  EXPECT_TRUE(Is<HeadTooLarge>(std::string(100, 'a'), 100));
  EXPECT_TRUE(Is<HeadIncomplete>(std::string(99, 'a'), 100));
}

TEST(HttpRequestTest, NotHttp1IsMalformed) {
  for (std::string input :
       {"PRI * HTTP/2.0\r\n\r\n", "GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", " / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1 \r\n\r\n", "\r\n\r\n", "GET / HTTP/1.1\r\nNoColon\r\n\r\n",
        "GET / HTTP/1.1\r\n folded: x\r\n\r\n", "GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"}) {
    EXPECT_TRUE(Is<HeadMalformed>(input)) << input;
  }
}

}  // namespace
}  // namespace metrics
