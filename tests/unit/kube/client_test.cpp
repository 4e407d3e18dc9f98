// Client behaviour that the real API server cannot be made to show on demand
// (429 + Retry-After, 5xx, non-Status bodies, broken watch streams), against a
// scripted loopback HTTP server. The same Client is exercised against the real
// kube-apiserver in tests/integration/kube.
#include "kube/client/client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "base/version.h"
#include "kube/api/coordination/v1/lease.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/client/api_error.h"
#include "kube/client/write_observer.h"
#include "tests/support/proto_writer.h"
#include "tests/support/scripted_http_server.h"
#include "tests/support/throttle_probe.h"

namespace kube {
namespace {

using testsupport::PassesUnthrottled;
using testsupport::ScriptedHttpServer;
using testsupport::ScriptedResponse;
using testsupport::StatusBody;
using namespace std::chrono_literals;

constexpr std::string_view kVa =
    R"({"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment","metadata":{"name":"va-1","resourceVersion":"7"},"spec":{"attacher":"d","nodeName":"n","source":{"persistentVolumeName":"pv"}}})";

class ClientTest : public ::testing::Test {
 protected:
  std::unique_ptr<Client> MakeClient(double qps = 0, int burst = 0) {
    RestConfig config;
    config.server = server_.url();
    config.bearer_token = "s3cr3t-token";
    config.user_agent = "csi-attacher/test";
    config.qps = qps;
    config.burst = burst;
    auto client = Client::Create(config, clock_);
    EXPECT_TRUE(client.ok()) << client.error().message;
    return std::move(client).value();
  }

  ScriptedHttpServer server_;
  base::FakeClock clock_;
};

TEST_F(ClientTest, GetSendsIdentityAndDecodesObject) {
  server_.Script({200, {{"Content-Type", "application/json"}}, {std::string(kVa)}});
  auto va = MakeClient()->Get<VolumeAttachment>("", "va-1");
  ASSERT_TRUE(va.ok()) << va.error().message;
  EXPECT_EQ(va->metadata.name, "va-1");
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/apis/storage.k8s.io/v1/volumeattachments/va-1");
  EXPECT_EQ(requests[0].headers["authorization"], "Bearer s3cr3t-token");
  EXPECT_EQ(requests[0].headers["user-agent"], "csi-attacher/test");
}

// client-go names the binary that runs; kube/ knows no binary names.
TEST_F(ClientTest, DefaultUserAgentIsProgramSlashVersion) {
  server_.Script({200, {}, {std::string(kVa)}});
  RestConfig config;
  config.server = server_.url();
  auto client = Client::Create(config, clock_);
  ASSERT_TRUE(client.ok());
  ASSERT_TRUE((*client)->Get<VolumeAttachment>("", "va-1").ok());
  EXPECT_EQ(server_.requests().at(0).headers["user-agent"],
            "unit_kube_test/" + std::string(base::Version()));
}

TEST(UserAgentForTest, BasenameOfTheProgramSlashVersion) {
  const std::string version(base::Version());
  EXPECT_EQ(Client::UserAgentFor("/usr/local/bin/csi-snapshotter"), "csi-snapshotter/" + version);
  EXPECT_EQ(Client::UserAgentFor("csi-attacher"), "csi-attacher/" + version);
  EXPECT_EQ(Client::UserAgentFor(""), "unknown/" + version);
}

TEST_F(ClientTest, ApiErrorIsDecodedFromStatusObject) {
  server_.Script(
      {404,
       {},
       {StatusBody(404, "NotFound", R"(volumeattachments.storage.k8s.io "x" not found)")}});
  auto va = MakeClient()->Get<VolumeAttachment>("", "x");
  ASSERT_FALSE(va.ok());
  EXPECT_TRUE(IsNotFound(va.error()));
  EXPECT_EQ(va.error().message, R"(volumeattachments.storage.k8s.io "x" not found)");
}

TEST_F(ClientTest, NonStatusErrorBodyGivesHttpCodeAndExcerpt) {
  server_.Script({502, {}, {"<html>bad gateway</html>"}});
  auto va = MakeClient()->Get<VolumeAttachment>("", "x");
  ASSERT_FALSE(va.ok());
  EXPECT_EQ(va.error().code, 502);
  EXPECT_NE(va.error().message.find("HTTP 502"), std::string::npos) << va.error().message;
  EXPECT_NE(va.error().message.find("bad gateway"), std::string::npos);
}

TEST_F(ClientTest, TooManyRequestsWaitsRetryAfterThenRetries) {
  server_.Script({429, {{"Retry-After", "3"}}, {StatusBody(429, "TooManyRequests", "slow down")}});
  server_.Script({200, {}, {std::string(kVa)}});
  auto client = MakeClient();
  const base::Clock::TimePoint start = clock_.Now();
  base::Result<VolumeAttachment> result = base::Error("not run");
  std::thread caller([&] { result = client->Get<VolumeAttachment>("", "va-1"); });
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 3s}, 5s)) << "not the Retry-After wait";
  EXPECT_EQ(server_.requests().size(), 1u);
  clock_.Advance(3s);
  caller.join();
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(server_.requests().size(), 2u);
}

// As client-go's clientsets built from one rest.Config: each limits its own
// requests, none waits for a token another spent; they share the connections.
TEST_F(ClientTest, WithOwnTokenBucketWaitsOnlyForItsOwnTokensOverTheSameConnections) {
  for (int i = 0; i < 3; ++i) {
    server_.Script({200, {}, {std::string(kVa)}, /*keep_alive=*/true});
  }
  auto first = MakeClient(/*qps=*/1, /*burst=*/1);
  auto second = first->WithOwnTokenBucket();
  EXPECT_TRUE(PassesUnthrottled(
      clock_, [&] { ASSERT_TRUE(first->Get<VolumeAttachment>("", "va-1").ok()); }));
  EXPECT_TRUE(PassesUnthrottled(clock_, [&] {
    ASSERT_TRUE(second->Get<VolumeAttachment>("", "va-1").ok());
  })) << "waited for a token the other client spent";
  EXPECT_FALSE(PassesUnthrottled(clock_, [&] {
    ASSERT_TRUE(first->Get<VolumeAttachment>("", "va-1").ok());
  })) << "its own bucket is empty until a second has passed";
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 3u);
  for (const auto& request : requests) EXPECT_EQ(request.connection, 1);
}

TEST_F(ClientTest, TooManyRequestsGivesUpAfterMaxRetries) {
  for (int i = 0; i <= Client::kMaxRetries; ++i) {
    server_.Script({429, {{"Retry-After", "0"}}, {StatusBody(429, "TooManyRequests", "no")}});
  }
  auto result = MakeClient()->Get<VolumeAttachment>("", "va-1");
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(IsTooManyRequests(result.error()));
  EXPECT_EQ(server_.requests().size(), static_cast<size_t>(Client::kMaxRetries + 1));
}

TEST_F(ClientTest, ServerErrorWithoutRetryAfterIsNotRetried) {
  server_.Script({500, {}, {StatusBody(500, "InternalError", "etcd leader changed")}});
  auto result = MakeClient()->Get<VolumeAttachment>("", "va-1");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, 500);
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(ClientTest, PatchUsesContentTypeAndSubresource) {
  server_.Script({200, {}, {std::string(kVa)}});
  auto result = MakeClient()->Patch<VolumeAttachment>("", "va-1", PatchType::kMerge,
                                                      R"({"status":{"attached":true}})", "status");
  ASSERT_TRUE(result.ok()) << result.error().message;
  auto r = server_.requests().at(0);
  EXPECT_EQ(r.method, "PATCH");
  EXPECT_EQ(r.target, "/apis/storage.k8s.io/v1/volumeattachments/va-1/status");
  EXPECT_EQ(r.headers["content-type"], "application/merge-patch+json");
  EXPECT_EQ(r.body, R"({"status":{"attached":true}})");
}

// Every successful write is reported to the writing thread's observer with
// the answer's resourceVersion (docs/design.md §3.1); reads, deletes,
// failed writes and other threads' writes are not.
TEST_F(ClientTest, WritesAreReportedToTheWritingThreadsObserver) {
  struct Recorder final : WriteObserver {
    void OnWritten(const KindFacts* kind, std::string_view ns, std::string_view name,
                   std::string_view resource_version) override {
      written.push_back(std::string(kind->kind) + " " + std::string(ns) + "/" + std::string(name) +
                        "@" + std::string(resource_version));
    }
    std::vector<std::string> written;
  };
  for (int i = 0; i < 3; ++i) server_.Script({200, {}, {std::string(kVa)}});
  server_.Script({409, {}, {StatusBody(409, "Conflict", "the object has been modified")}});
  server_.Script({200, {}, {std::string(kVa)}});
  auto client = MakeClient();
  Recorder recorder;
  {
    ScopedWriteObserver observe(recorder);
    ASSERT_TRUE(client->Get<VolumeAttachment>("", "va-1").ok());
    ASSERT_TRUE((client->Patch<VolumeAttachment>("", "va-1", PatchType::kMerge, "{}").ok()));
    ASSERT_TRUE(client->Delete<VolumeAttachment>("", "va-1").ok());
    EXPECT_FALSE((client->Patch<VolumeAttachment>("", "va-1", PatchType::kMerge, "{}").ok()));
    std::thread([&] {
      ASSERT_TRUE((client->Patch<VolumeAttachment>("", "va-1", PatchType::kMerge, "{}").ok()));
    }).join();
  }
  EXPECT_EQ(ScopedWriteObserver::Current(), nullptr);
  EXPECT_THAT(recorder.written, ::testing::ElementsAre("VolumeAttachment /va-1@7"));
}

TEST_F(ClientTest, ListAndWatchQueriesCarryOptions) {
  server_.Script(
      {200,
       {},
       {R"({"kind":"VolumeAttachmentList","metadata":{"resourceVersion":"9","continue":"c2"},"items":[)" +
        std::string(kVa) + "]}"}});
  server_.Script({200, {}, {}});
  auto client = MakeClient();
  ListOptions list_options;
  list_options.limit = 50;
  list_options.continue_token = "c1";
  auto list = client->List<VolumeAttachment>("", list_options);
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(list->items.size(), 1u);
  EXPECT_EQ(list->metadata.continue_token, "c2");
  std::function<bool(WatchEvent<VolumeAttachment> &&)> ignore = [](auto&&) { return true; };
  WatchOptions watch_options;
  watch_options.resource_version = "9";
  watch_options.timeout_seconds = 300;
  ASSERT_TRUE(client->Watch<VolumeAttachment>("", watch_options, ignore, {}).ok());
  auto requests = server_.requests();
  EXPECT_EQ(requests[0].target, "/apis/storage.k8s.io/v1/volumeattachments?limit=50&continue=c1");
  EXPECT_EQ(requests[1].target,
            "/apis/storage.k8s.io/v1/volumeattachments?watch=true&resourceVersion=9&"
            "allowWatchBookmarks=true&timeoutSeconds=300");
}

TEST_F(ClientTest, StreamingListWatchAsksForInitialEventsFromAConsistentRead) {
  server_.Script({200, {}, {}});
  std::function<bool(WatchEvent<VolumeAttachment> &&)> ignore = [](auto&&) { return true; };
  WatchOptions options;
  options.send_initial_events = true;
  ASSERT_TRUE(MakeClient()->Watch<VolumeAttachment>("", options, ignore, {}).ok());
  EXPECT_EQ(server_.requests().at(0).target,
            "/apis/storage.k8s.io/v1/volumeattachments?watch=true&allowWatchBookmarks=true&"
            "sendInitialEvents=true&resourceVersionMatch=NotOlderThan");
}

// docs/design.md §4.1: a kind with a protobuf decoder asks for protobuf and
// reads what the answer's Content-Type says; request bodies stay JSON.
TEST_F(ClientTest, WatchOfAProtobufKindAsksForProtobufAndDecodesIt) {
  using testsupport::ProtoWriter;
  std::string va = testsupport::Enveloped(
      "storage.k8s.io/v1", "VolumeAttachment",
      ProtoWriter().Message(1, ProtoWriter().Bytes(1, "va-proto").Bytes(6, "7")));
  std::string stream = testsupport::WatchFrame("ADDED", va);
  server_.Script({200,
                  {{"Content-Type", "application/vnd.kubernetes.protobuf;stream=watch"}},
                  {stream.substr(0, 5), stream.substr(5)}});
  std::vector<std::string> names;
  std::function<bool(WatchEvent<VolumeAttachment> &&)> collect = [&](auto&& event) {
    names.push_back(event.object.metadata.name);
    return true;
  };
  auto status = MakeClient()->Watch<VolumeAttachment>("", {}, collect, {});
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(names, std::vector<std::string>{"va-proto"});
  EXPECT_EQ(server_.requests().at(0).headers.at("accept"),
            "application/vnd.kubernetes.protobuf, application/json");
}

TEST_F(ClientTest, WatchOfAProtobufKindReadsJsonWhenTheServerAnswersJson) {
  server_.Script({200,
                  {{"Content-Type", "application/json;stream=watch"}},
                  {R"({"type":"ADDED","object":)" + std::string(kVa) + "}\n"}});
  int events = 0;
  std::function<bool(WatchEvent<VolumeAttachment> &&)> count = [&](auto&&) {
    ++events;
    return true;
  };
  ASSERT_TRUE(MakeClient()->Watch<VolumeAttachment>("", {}, count, {}).ok());
  EXPECT_EQ(events, 1);
}

TEST_F(ClientTest, PatchOfAProtobufKindAsksForProtobufAndReadsAProtobufAnswer) {
  using testsupport::ProtoWriter;
  std::string va = testsupport::Enveloped(
      "storage.k8s.io/v1", "VolumeAttachment",
      ProtoWriter().Message(1, ProtoWriter().Bytes(1, "va-proto").Bytes(6, "8")));
  server_.Script({200, {{"Content-Type", "application/vnd.kubernetes.protobuf"}}, {va}});
  auto patched =
      MakeClient()->Patch<VolumeAttachment>("", "va-proto", PatchType::kMerge, R"({"a":1})");
  ASSERT_TRUE(patched.ok()) << patched.error().message;
  EXPECT_EQ(patched->metadata.name, "va-proto");
  EXPECT_EQ(patched->metadata.resource_version, "8");
  EXPECT_EQ(server_.requests().at(0).headers.at("accept"),
            "application/vnd.kubernetes.protobuf, application/json");
  EXPECT_EQ(server_.requests().at(0).headers.at("content-type"), "application/merge-patch+json");
}

TEST_F(ClientTest, GetOfAProtobufKindReadsJsonWhenTheServerAnswersJson) {
  server_.Script({200, {{"Content-Type", "application/json"}}, {std::string(kVa)}});
  auto got = MakeClient()->Get<VolumeAttachment>("", "va-1");
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_FALSE(got->metadata.name.empty());
  EXPECT_EQ(server_.requests().at(0).headers.at("accept"),
            "application/vnd.kubernetes.protobuf, application/json");
}

TEST_F(ClientTest, ProtobufStatusOfAFailedRequestGivesItsMessage) {
  using testsupport::ProtoWriter;
  // metav1.Status: message = 3, reason = 4, code = 6.
  std::string status = testsupport::Enveloped("v1", "Status",
                                              ProtoWriter()
                                                  .Bytes(3, "volumeattachments \"va-9\" not found")
                                                  .Bytes(4, "NotFound")
                                                  .Varint(6, 404));
  server_.Script({404, {{"Content-Type", "application/vnd.kubernetes.protobuf"}}, {status}});
  auto got = MakeClient()->Get<VolumeAttachment>("", "va-9");
  ASSERT_FALSE(got.ok());
  EXPECT_TRUE(got.error().IsHttp(404));
  EXPECT_EQ(got.error().message, "volumeattachments \"va-9\" not found");
}

TEST_F(ClientTest, KindWithoutAProtobufDecoderAsksForJsonOnly) {
  server_.Script({200, {{"Content-Type", "application/json"}}, {R"({"metadata":{"name":"l"}})"}});
  ASSERT_TRUE(MakeClient()->Get<Lease>("ns", "l").ok());
  EXPECT_EQ(server_.requests().at(0).headers.at("accept"), "application/json");
}

TEST_F(ClientTest, WatchWithGarbageOnStreamReturnsErrorAfterGoodEvents) {
  server_.Script(
      {200, {}, {R"({"type":"ADDED","object":)" + std::string(kVa) + "}\n", "this is not json\n"}});
  int events = 0;
  std::function<bool(WatchEvent<VolumeAttachment> &&)> count = [&](auto&&) {
    ++events;
    return true;
  };
  auto status = MakeClient()->Watch<VolumeAttachment>("", {}, count, {});
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(events, 1);
  EXPECT_NE(status.error().message.find("decoding watch event"), std::string::npos);
}

TEST_F(ClientTest, WatchStreamCutMidObjectIsAnError) {
  server_.Script({200, {}, {R"({"type":"ADDED","object":{"metadata":{"na)"}});
  std::function<bool(WatchEvent<VolumeAttachment> &&)> ignore = [](auto&&) { return true; };
  auto status = MakeClient()->Watch<VolumeAttachment>("", {}, ignore, {});
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("truncated"), std::string::npos) << status.error().message;
}

TEST_F(ClientTest, WatchOpenFailureCarriesHttpStatus) {
  server_.Script({410, {}, {StatusBody(410, "Expired", "too old resource version")}});
  std::function<bool(WatchEvent<VolumeAttachment> &&)> ignore = [](auto&&) { return true; };
  auto status = MakeClient()->Watch<VolumeAttachment>("", {}, ignore, {});
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(IsGone(status.error()));
}

TEST_F(ClientTest, ServerDownIsTransportError) {
  RestConfig config;
  config.server = "http://127.0.0.1:1";
  auto client = Client::Create(config, clock_);
  ASSERT_TRUE(client.ok());
  auto result = (*client)->Get<VolumeAttachment>("", "x");
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(IsTransportError(result.error())) << result.error().message;
}

TEST_F(ClientTest, RejectsServerUrlWithoutScheme) {
  RestConfig config;
  config.server = "127.0.0.1:6443";
  auto client = Client::Create(config, clock_);
  ASSERT_FALSE(client.ok());
  EXPECT_NE(client.error().message.find("https://"), std::string::npos);
}

}  // namespace
}  // namespace kube
