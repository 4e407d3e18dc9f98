// csi_lite::GrpcServer: calls answered as gRPC answers them, read by our own
// client (GrpcSocket) and by hand (raw_client.h) for the requests no gRPC
// client sends; connections that misbehave, several at once, and Stop.
#include "csi_lite/grpc_server.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iterator>
#include <thread>

#include "csi/status_error.h"
#include "csi_lite/grpc_framing.h"
#include "csi_lite/grpc_socket.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/csi_lite/raw_client.h"

namespace csi_lite {
namespace {

using namespace std::chrono_literals;
using testing::Frame;
using testing::kData;
using testing::kEndStream;
using testing::RawClient;
using testing::RequestHeaders;

constexpr const char* kEcho = "/test.Echo/Echo";

auto SoonDeadline() { return std::chrono::steady_clock::now() + std::chrono::seconds(2); }

class GrpcServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    UnaryMethods methods;
    methods[kEcho] = [](std::string_view request) { return std::string(request); };
    methods["/test.Echo/Fail"] = [](std::string_view) -> base::Result<std::string> {
      return csi::StatusError(9, "no: 100%\ndone");
    };
    methods["/test.Echo/Size"] = [](std::string_view request) {
      return std::to_string(request.size());
    };
    methods["/test.Echo/Plain"] = [](std::string_view) -> base::Result<std::string> {
      return base::Error("not a status");
    };
    auto server = GrpcServer::Start(path_, std::move(methods));
    ASSERT_TRUE(server.ok()) << server.error().message;
    server_ = std::move(server).value();
  }

  base::Result<std::string> Call(const std::string& method, std::string_view request) {
    auto socket = GrpcSocket::Open(path_);
    if (!socket.ok()) return socket.error();
    return (*socket)->Call(method, request, SoonDeadline());
  }

  test::TempDir dir_;
  const std::string path_ = (dir_.path() / "grpc.sock").string();
  std::unique_ptr<GrpcServer> server_;
};

TEST_F(GrpcServerTest, AnswersWithHeadersTheMessageAndOkTrailers) {
  auto echoed = Call(kEcho, "hello");
  ASSERT_TRUE(echoed.ok()) << echoed.error().message;
  EXPECT_EQ(*echoed, "hello");

  RawClient raw(path_);
  raw.Send(RequestHeaders(kEcho) + Frame(kData, kEndStream, 1, LengthPrefixed("hi")));
  testing::RawAnswer answer = raw.Read();
  EXPECT_TRUE(answer.ended);
  EXPECT_EQ(answer.fields[":status"], "200");
  EXPECT_EQ(answer.fields["content-type"], "application/grpc");
  EXPECT_EQ(answer.fields["grpc-status"], "0");
  EXPECT_EQ(answer.data, LengthPrefixed("hi"));
}

// kubelet dials the registration socket by its path, so grpc-go sends that
// path as :authority: not an authority by HTTP's rules, answered all the same.
TEST_F(GrpcServerTest, AnswersWhateverTheAuthority) {
  for (const char* authority : {"/var/lib/kubelet/plugins_registry/x-reg.sock", "", "a b"}) {
    RawClient raw(path_);
    raw.Send(RequestHeaders(kEcho, authority) + Frame(kData, kEndStream, 1, LengthPrefixed("hi")));
    testing::RawAnswer answer = raw.Read();
    EXPECT_EQ(answer.fields["grpc-status"], "0") << authority;
    EXPECT_EQ(answer.data, LengthPrefixed("hi")) << authority;
  }
}

TEST_F(GrpcServerTest, HandlerErrorIsTrailersOnlyWithItsCodeAndPercentEncodedMessage) {
  auto failed = Call("/test.Echo/Fail", "");
  ASSERT_FALSE(failed.ok());
  EXPECT_TRUE(csi::IsGrpcCode(failed.error(), 9));
  EXPECT_EQ(csi::GrpcMessage(failed.error()), "no: 100%\ndone");

  RawClient raw(path_);
  raw.Send(RequestHeaders("/test.Echo/Fail") + Frame(kData, kEndStream, 1, LengthPrefixed("")));
  testing::RawAnswer answer = raw.Read();
  EXPECT_EQ(answer.fields["grpc-status"], "9");
  EXPECT_EQ(answer.fields["grpc-message"], "no: 100%25%0Adone");
  EXPECT_EQ(answer.data, "");

  auto plain = Call("/test.Echo/Plain", "");
  ASSERT_FALSE(plain.ok());
  EXPECT_TRUE(csi::IsGrpcCode(plain.error(), csi::codes::kUnknown));
}

TEST_F(GrpcServerTest, UnknownMethodIsUnimplemented) {
  auto missing = Call("/test.Echo/Missing", "");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(csi::IsGrpcCode(missing.error(), csi::codes::kUnimplemented))
      << missing.error().message;
}

TEST_F(GrpcServerTest, MalformedBodiesAreInternalAndTheServerKeepsServing) {
  const std::string bodies[] = {
      std::string("\0\0\0\0\x0a"
                  "abc",
                  8),            // prefix says 10 bytes, 3 came
      std::string("\0\0\0", 3),  // a prefix cut short
      std::string("\x01\0\0\0\x02"
                  "ab",
                  7),                             // compressed
      LengthPrefixed("a") + LengthPrefixed("b"),  // two messages
      "",                                         // no message at all
  };
  for (const std::string& body : bodies) {
    RawClient raw(path_);
    raw.Send(RequestHeaders(kEcho) + Frame(kData, kEndStream, 1, body));
    testing::RawAnswer answer = raw.Read();
    EXPECT_TRUE(answer.ended);
    EXPECT_EQ(answer.fields["grpc-status"], "13") << ::testing::PrintToString(body);
  }
  EXPECT_TRUE(Call(kEcho, "still").ok());
}

TEST_F(GrpcServerTest, RequestOverFourMebibytesIsResourceExhausted) {
  auto largest = Call("/test.Echo/Size", std::string(kMaxMessage, 'x'));
  ASSERT_TRUE(largest.ok()) << largest.error().message;
  EXPECT_EQ(*largest, std::to_string(kMaxMessage));
  auto large = Call("/test.Echo/Size", std::string(kMaxMessage + 1, 'x'));
  ASSERT_FALSE(large.ok());
  EXPECT_TRUE(csi::IsGrpcCode(large.error(), csi::codes::kResourceExhausted))
      << large.error().message;
}

TEST_F(GrpcServerTest, ABrokenConnectionIsClosedAloneAndOthersAreServed) {
  RawClient http1(path_);
  http1.Send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  testing::RawAnswer answer = http1.Read(1000ms);
  EXPECT_FALSE(answer.ended);
  EXPECT_TRUE(Call(kEcho, "after").ok());
}

// The process' open descriptors: a connection the server failed to close stays among them.
size_t OpenDescriptors() {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/fd"),
                                           std::filesystem::directory_iterator()));
}

TEST_F(GrpcServerTest, ClientClosingMidCallLeavesTheServerServing) {
  const size_t before = OpenDescriptors();
  {
    RawClient raw(path_);
    raw.Send(RequestHeaders(kEcho) + Frame(kData, 0, 1, LengthPrefixed("half").substr(0, 6)));
  }  // closed with the call open
  auto echoed = Call(kEcho, "next");
  ASSERT_TRUE(echoed.ok()) << echoed.error().message;
  EXPECT_EQ(*echoed, "next");
  const auto give_up = std::chrono::steady_clock::now() + 1s;
  while (OpenDescriptors() != before && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_EQ(OpenDescriptors(), before) << "the closed connection's socket is still open";
}

TEST_F(GrpcServerTest, ServesSeveralConnectionsAtOnce) {
  RawClient stalled(path_);  // a call that never ends holds no one up
  stalled.Send(RequestHeaders(kEcho));
  auto a = GrpcSocket::Open(path_);
  auto b = GrpcSocket::Open(path_);
  ASSERT_TRUE(a.ok() && b.ok());
  for (const char* word : {"one", "two", "three"}) {
    auto from_a = (*a)->Call(kEcho, word, SoonDeadline());
    auto from_b = (*b)->Call(kEcho, std::string(word) + "!", SoonDeadline());
    ASSERT_TRUE(from_a.ok() && from_b.ok());
    EXPECT_EQ(*from_a, word);
    EXPECT_EQ(*from_b, std::string(word) + "!");
  }
}

TEST_F(GrpcServerTest, StopWithClientsConnectedReturnsPromptlyAndClosesThem) {
  RawClient stalled(path_);
  stalled.Send(RequestHeaders(kEcho));
  auto kept = GrpcSocket::Open(path_);
  ASSERT_TRUE(kept.ok());
  ASSERT_TRUE((*kept)->Call(kEcho, "x", SoonDeadline()).ok());
  const auto start = std::chrono::steady_clock::now();
  server_->Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 500ms);
  auto after = (*kept)->Call(kEcho, "y", SoonDeadline());
  ASSERT_FALSE(after.ok());
  EXPECT_TRUE(csi::IsGrpcCode(after.error(), csi::codes::kUnavailable)) << after.error().message;
  EXPECT_TRUE(std::filesystem::exists(path_)) << "the file is its owner's to remove";
}

TEST(GrpcServerStartTest, AnOccupiedPathIsAListenError) {
  test::TempDir dir;
  const std::string path = dir.Write("taken", "x");
  auto server = GrpcServer::Start(path, {});
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.error().message.rfind("listen unix " + path + ": bind: ", 0), 0u)
      << server.error().message;
}

}  // namespace
}  // namespace csi_lite
