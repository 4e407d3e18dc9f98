// csi_lite::GrpcSocket against hand-written HTTP/2 answers (scripted_server.h):
// what gRPC's wire format allows and a gRPC server rarely shows.
#include "csi_lite/grpc_socket.h"

#include <gtest/gtest.h>

#include <chrono>

#include "tests/unit/csi_lite/scripted_server.h"

namespace csi_lite {
namespace {

using namespace std::chrono_literals;
using testing::HeadersFrame;
using testing::kData;
using testing::kEndStream;
using testing::ScriptedServer;

auto In(std::chrono::milliseconds d) { return std::chrono::steady_clock::now() + d; }

base::Result<std::string> CallOnce(const ScriptedServer& server,
                                   std::chrono::milliseconds timeout = 2000ms) {
  auto socket = GrpcSocket::Open(server.socket_path());
  if (!socket.ok()) return socket.error();
  return (*socket)->Call("/csi.v1.Identity/Probe", "", In(timeout));
}

TEST(GrpcSocketTest, JoinsAResponseSplitAcrossFramesAndReads) {
  const std::string message = "\x0a\x02\x08\x01";  // ProbeResponse{ready: {value: true}}
  const std::string body = testing::LengthPrefixed(message);
  const std::string data_frames = testing::Frame(kData, 0, 1, body.substr(0, 2)) +
                                  testing::Frame(kData, 0, 1, body.substr(2, 4)) +
                                  testing::Frame(kData, 0, 1, body.substr(6));
  // The prefix split between frames, and the frames themselves between reads.
  ScriptedServer server({testing::ResponseHead(), data_frames.substr(0, 13), data_frames.substr(13),
                         testing::OkTrailers()});
  auto response = CallOnce(server);
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(*response, message);
}

TEST(GrpcSocketTest, TrailersOnlyAnswerGivesItsPercentDecodedStatus) {
  ScriptedServer server({HeadersFrame(kEndStream, {{":status", "200"},
                                                   {"content-type", "application/grpc"},
                                                   {"grpc-status", "9"},
                                                   {"grpc-message", "not%20ready%3A%20disk"}})});
  auto response = CallOnce(server);
  ASSERT_FALSE(response.ok());
  EXPECT_TRUE(response.error().IsGrpc());
  EXPECT_EQ(response.error().code, 9);
  EXPECT_EQ(response.error().message,
            "rpc error: code = FailedPrecondition desc = not ready: disk");
}

TEST(GrpcSocketTest, ErrorStatusInTrailersAfterHeaders) {
  ScriptedServer server(
      {testing::ResponseHead(),
       HeadersFrame(kEndStream, {{"grpc-status", "13"}, {"grpc-message", "boom"}})});
  auto response = CallOnce(server);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().code, 13);
  EXPECT_EQ(response.error().message, "rpc error: code = Internal desc = boom");
}

TEST(GrpcSocketTest, HungDriverEndsAtTheDeadline) {
  ScriptedServer server({});  // reads the request, never answers
  auto start = std::chrono::steady_clock::now();
  auto response = CallOnce(server, 300ms);
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().code, 4);
  EXPECT_EQ(response.error().message,
            "rpc error: code = DeadlineExceeded desc = context deadline exceeded");
  EXPECT_GE(took, 300ms);
  EXPECT_LT(took, 1500ms);
}

TEST(GrpcSocketTest, MissingSocketFailsToOpen) {
  auto socket = GrpcSocket::Open("/tmp/csi-lite-test-no-such-dir/csi.sock");
  ASSERT_FALSE(socket.ok());
  EXPECT_EQ(socket.error().message,
            "dial unix /tmp/csi-lite-test-no-such-dir/csi.sock: No such file or directory");
}

TEST(GrpcSocketTest, ConnectionClosedBeforeTheAnswerIsUnavailable) {
  ScriptedServer server({testing::ResponseHead()}, /*close_after=*/true);
  auto response = CallOnce(server);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().code, 14);
}

TEST(GrpcSocketTest, HttpErrorWithoutGrpcStatusIsMappedAsGrpcDoes) {
  ScriptedServer server({HeadersFrame(kEndStream, {{":status", "503"}})});
  auto response = CallOnce(server);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().message,
            "rpc error: code = Unavailable desc = unexpected HTTP status code received from "
            "server: 503");
}

TEST(GrpcSocketTest, StreamResetIsInternal) {
  const std::string cancel("\0\0\0\x08", 4);  // error code CANCEL
  ScriptedServer server({testing::Frame(testing::kRstStream, 0, 1, cancel)});
  auto response = CallOnce(server);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().code, 13);
  EXPECT_EQ(response.error().message,
            "rpc error: code = Internal desc = stream terminated by RST_STREAM with error code: "
            "CANCEL");
}

TEST(GrpcSocketTest, OkStatusWithoutExactlyOneMessageIsInternal) {
  const std::string two = testing::LengthPrefixed("a") + testing::LengthPrefixed("b");
  ScriptedServer server(
      {testing::ResponseHead(), testing::Frame(kData, 0, 1, two), testing::OkTrailers()});
  auto response = CallOnce(server);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().message,
            "rpc error: code = Internal desc = grpc: the response is not exactly one message");
}

}  // namespace
}  // namespace csi_lite
