// SnapshotApiClient: Secrets go through the core client, contents through the
// snapshot client, each with its own QPS/burst limiter as upstream's two
// clientsets (docs/snapshots.md §3.2 step 1).
#include <gtest/gtest.h>

#include "base/clock.h"
#include "snapshot/snapshot_clients.h"
#include "snapshotter/snapshot_api.h"
#include "tests/support/scripted_http_server.h"
#include "tests/support/throttle_probe.h"

namespace snapshotter {
namespace {

using testsupport::PassesUnthrottled;
using testsupport::ScriptedHttpServer;

constexpr char kSecret[] =
    R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"creds","namespace":"default"}})";
constexpr char kContent[] =
    R"({"apiVersion":"snapshot.storage.k8s.io/v1","kind":"VolumeSnapshotContent","metadata":{"name":"content-1"}})";

class SnapshotApiClientTest : public ::testing::Test {
 protected:
  snapshot::SnapshotClients Clients(double qps, int burst) {
    kube::RestConfig config;
    config.server = server_.url();
    config.qps = qps;
    config.burst = burst;
    auto clients = snapshot::SnapshotClients::Create(config, clock_);
    EXPECT_TRUE(clients.ok()) << clients.error().message;
    return clients.ok() ? std::move(clients).value() : snapshot::SnapshotClients{};
  }

  ScriptedHttpServer server_;
  base::FakeClock clock_;
};

TEST_F(SnapshotApiClientTest, ContentRequestsDoNotWaitBehindSecretReads) {
  snapshot::SnapshotClients clients = Clients(/*qps=*/1, /*burst=*/1);
  SnapshotApiClient api(clients);
  server_.Script({200, {}, {kSecret}});
  server_.Script({200, {}, {kContent}});
  server_.Script({200, {}, {kContent}});

  EXPECT_TRUE(
      PassesUnthrottled(clock_, [&] { ASSERT_TRUE(api.GetSecret("default", "creds").ok()); }));
  EXPECT_TRUE(PassesUnthrottled(clock_, [&] { ASSERT_TRUE(api.GetContent("content-1").ok()); }))
      << "the content read waited for the token the Secret read spent";
  EXPECT_FALSE(PassesUnthrottled(clock_, [&] { ASSERT_TRUE(api.GetContent("content-1").ok()); }))
      << "the snapshot bucket (burst 1) is empty until a second has passed";
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].target, "/api/v1/namespaces/default/secrets/creds");
  EXPECT_EQ(requests[1].target,
            "/apis/snapshot.storage.k8s.io/v1/volumesnapshotcontents/content-1");
}

}  // namespace
}  // namespace snapshotter
