#include "kube/client/http_response_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kube {
namespace {

using ::testing::HasSubstr;

struct Parsed {
  bool ok = false;
  std::string error;
  ResponseHead head;
  std::string body;
  bool complete = false;
  size_t consumed = 0;
};

// Feeds `pieces` one after another, then the end of the connection when `eof`.
Parsed Parse(const std::vector<std::string>& pieces, bool eof = false) {
  Parsed out;
  HttpResponseParser parser;
  auto sink = [&](std::string_view bytes) {
    out.body.append(bytes);
    return true;
  };
  for (const auto& piece : pieces) {
    auto consumed = parser.Feed(piece, sink);
    if (!consumed.ok()) {
      out.error = consumed.error().message;
      return out;
    }
    out.consumed += *consumed;
  }
  if (eof) {
    if (auto status = parser.FinishAtEof(); !status.ok()) {
      out.error = status.error().message;
      return out;
    }
  }
  out.ok = true;
  out.head = parser.head();
  out.complete = parser.complete();
  return out;
}

// The same response fed whole, split in two at every byte, and byte by byte
// must parse identically.
void ExpectSameAtEverySplit(const std::string& response, bool eof, const std::string& body,
                            int status) {
  std::vector<std::vector<std::string>> feedings = {{response}};
  for (size_t cut = 1; cut < response.size(); ++cut) {
    feedings.push_back({response.substr(0, cut), response.substr(cut)});
  }
  std::vector<std::string> bytes;
  for (char c : response) bytes.emplace_back(1, c);
  feedings.push_back(bytes);
  for (const auto& pieces : feedings) {
    Parsed parsed = Parse(pieces, eof);
    ASSERT_TRUE(parsed.ok) << parsed.error << " (first piece " << pieces.front().size()
                           << " bytes)";
    EXPECT_TRUE(parsed.complete);
    EXPECT_EQ(parsed.head.status, status);
    EXPECT_EQ(parsed.body, body) << "first piece " << pieces.front().size() << " bytes";
  }
}

TEST(HttpResponseParserTest, ContentLengthBodyAtEverySplit) {
  ExpectSameAtEverySplit("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world", false,
                         "hello world", 200);
}

TEST(HttpResponseParserTest, ChunkedBodyWithExtensionsAndTrailersAtEverySplit) {
  ExpectSameAtEverySplit(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5;name=value\r\nhello\r\n"
      "1 ; quoted=\"a;b\"\r\n \r\n"
      "A\r\n0123456789\r\n"
      "0;last\r\nX-Trailer: one\r\nX-Other: two\r\n\r\n",
      false, "hello 0123456789", 200);
}

TEST(HttpResponseParserTest, CloseDelimitedBodyAtEverySplit) {
  ExpectSameAtEverySplit("HTTP/1.1 500 Internal Server Error\r\n\r\nuntil the end", true,
                         "until the end", 500);
}

TEST(HttpResponseParserTest, CompleteStopsConsumingBytesOfTheNextResponse) {
  const std::string first = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
  Parsed parsed = Parse({first + "HTTP/1.1 200 OK\r\n"});
  ASSERT_TRUE(parsed.ok) << parsed.error;
  EXPECT_TRUE(parsed.complete);
  EXPECT_EQ(parsed.consumed, first.size());
  EXPECT_EQ(parsed.body, "ok");
}

TEST(HttpResponseParserTest, KeepAliveFollowsVersionAndConnectionHeader) {
  EXPECT_TRUE(Parse({"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"}).head.keep_alive);
  EXPECT_FALSE(
      Parse({"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"}).head.keep_alive);
  EXPECT_FALSE(Parse({"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"}).head.keep_alive);
  EXPECT_TRUE(Parse({"HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n"})
                  .head.keep_alive);
  // A body that ends at close leaves nothing to reuse.
  EXPECT_FALSE(Parse({"HTTP/1.1 200 OK\r\n\r\nbody"}, true).head.keep_alive);
}

TEST(HttpResponseParserTest, RetryAfterInSecondsIsRead) {
  Parsed parsed =
      Parse({"HTTP/1.1 429 Too Many Requests\r\nretry-after:  7\r\nContent-Length: 0\r\n\r\n"});
  ASSERT_TRUE(parsed.ok) << parsed.error;
  EXPECT_EQ(parsed.head.retry_after_seconds, 7);
  Parsed date = Parse(
      {"HTTP/1.1 503 Unavailable\r\nRetry-After: Wed, 21 Oct 2015 07:28:00 GMT\r\nContent-Length: "
       "0\r\n\r\n"});
  EXPECT_FALSE(date.head.retry_after_seconds.has_value());
}

TEST(HttpResponseParserTest, InterimResponsesAreSkipped) {
  Parsed parsed =
      Parse({"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nx"});
  ASSERT_TRUE(parsed.ok) << parsed.error;
  EXPECT_EQ(parsed.head.status, 201);
  EXPECT_EQ(parsed.body, "x");
}

TEST(HttpResponseParserTest, NoContentHasNoBody) {
  Parsed parsed = Parse({"HTTP/1.1 204 No Content\r\n\r\n"});
  ASSERT_TRUE(parsed.ok) << parsed.error;
  EXPECT_TRUE(parsed.complete);
  EXPECT_TRUE(parsed.head.keep_alive);
}

TEST(HttpResponseParserTest, LineFeedOnlyLineEndsAreAccepted) {
  Parsed parsed = Parse({"HTTP/1.1 200 OK\nContent-Length: 2\n\nok"});
  ASSERT_TRUE(parsed.ok) << parsed.error;
  EXPECT_EQ(parsed.body, "ok");
}

TEST(HttpResponseParserTest, BadStatusLineIsAnErrorQuotingIt) {
  for (const char* line : {"HTTP/2 200 OK\r\n", "ICY 200 OK\r\n", "HTTP/1.1 20 OK\r\n",
                           "HTTP/1.1 2000 OK\r\n", "HTTP/1.1 abc OK\r\n", "\r\n"}) {
    Parsed parsed = Parse({line});
    EXPECT_FALSE(parsed.ok) << line;
    EXPECT_THAT(parsed.error, HasSubstr("malformed HTTP status line")) << line;
  }
  EXPECT_THAT(Parse({"garbage\x01\r\n"}).error, HasSubstr("\"garbage?\""));
}

TEST(HttpResponseParserTest, HeaderLineWithoutColonIsAnError) {
  EXPECT_THAT(Parse({"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n"}).error,
              HasSubstr("malformed HTTP header line"));
}

TEST(HttpResponseParserTest, OversizedHeadIsAnError) {
  std::string head =
      "HTTP/1.1 200 OK\r\nX-Big: " + std::string(HttpResponseParser::kMaxHeadBytes, 'a') +
      "\r\n\r\n";
  EXPECT_THAT(Parse({head}).error, HasSubstr("HTTP response head exceeds"));
  // Many small headers count together.
  std::string many = "HTTP/1.1 200 OK\r\n";
  while (many.size() <= HttpResponseParser::kMaxHeadBytes) many += "X-Small: 0123456789\r\n";
  EXPECT_THAT(Parse({many}).error, HasSubstr("HTTP response head exceeds"));
}

TEST(HttpResponseParserTest, OversizedChunkLineIsAnError) {
  std::string response = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;" +
                         std::string(HttpResponseParser::kMaxLineBytes, 'e') + "\r\n";
  EXPECT_THAT(Parse({response}).error, HasSubstr("chunk size line exceeds"));
}

TEST(HttpResponseParserTest, BadChunkFramingIsAnError) {
  EXPECT_THAT(Parse({"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"}).error,
              HasSubstr("malformed chunk size line"));
  EXPECT_THAT(Parse({"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n"}).error,
              HasSubstr("chunk data longer than its size"));
}

TEST(HttpResponseParserTest, ConflictingContentLengthsAreAnError) {
  EXPECT_THAT(Parse({"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n"}).error,
              HasSubstr("bad Content-Length"));
  EXPECT_THAT(Parse({"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"}).error,
              HasSubstr("bad Content-Length"));
}

TEST(HttpResponseParserTest, ChunkedWinsOverContentLengthAndForbidsReuse) {
  Parsed parsed =
      Parse({"HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n"
             "2\r\nok\r\n0\r\n\r\n"});
  ASSERT_TRUE(parsed.ok) << parsed.error;
  EXPECT_EQ(parsed.body, "ok");
  EXPECT_FALSE(parsed.head.keep_alive);
}

TEST(HttpResponseParserTest, EofBeforeTheEndIsAnErrorSayingWhere) {
  EXPECT_THAT(Parse({}, true).error, HasSubstr("before any response"));
  EXPECT_THAT(Parse({"HTTP/1.1 200 OK\r\nContent-"}, true).error, HasSubstr("response head"));
  EXPECT_THAT(Parse({"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab"}, true).error,
              HasSubstr("before the end of the response body"));
  EXPECT_THAT(Parse({"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"}, true).error,
              HasSubstr("before the end of the response body"));
}

TEST(HttpResponseParserTest, SinkReturningFalseStopsAtOnce) {
  HttpResponseParser parser;
  int calls = 0;
  auto consumed = parser.Feed(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n1\r\nb\r\n0\r\n\r\n",
      [&](std::string_view) {
        ++calls;
        return false;
      });
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(parser.stopped_by_sink());
  EXPECT_FALSE(parser.complete());
}

TEST(HttpResponseParserTest, ConnectAnswerEndsWithItsHead) {
  HttpResponseParser parser(/*head_only=*/true);
  const std::string answer = "HTTP/1.1 200 Connection established\r\n\r\n";
  auto consumed = parser.Feed(answer + "\x16\x03", [](std::string_view) { return true; });
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, answer.size());
  EXPECT_TRUE(parser.complete());
}

}  // namespace
}  // namespace kube
