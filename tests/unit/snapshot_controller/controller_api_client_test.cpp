// ControllerApiClient::UpdateClaimFinalizers: only the finalizers (and the
// resourceVersion guarding them) come from the decoded claim; every other
// field is PUT back as the API server sent it (docs/snapshots.md §5: update,
// no patch, on claims) - to a GET, or to our own PUT that left the claim
// protected when the claim has not changed since (§9.4).
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/names.h"
#include "tests/support/scripted_http_server.h"
#include "tests/support/throttle_probe.h"
#include "tests/unit/snapshot_controller/objects.h"

namespace snapshot_controller::testing {
namespace {

using testsupport::ScriptedHttpServer;
using testsupport::StatusBody;

constexpr char kClaimPath[] = "/api/v1/namespaces/default/persistentvolumeclaims/claim-1";

// A claim with fields kube::PersistentVolumeClaim does not keep.
const nlohmann::json kServerClaim = nlohmann::json::parse(R"json({
  "apiVersion": "v1", "kind": "PersistentVolumeClaim",
  "metadata": {"name": "claim-1", "namespace": "default", "uid": "c1a1-0000",
               "resourceVersion": "21", "finalizers": ["kubernetes.io/pvc-protection"],
               "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet",
                                    "name": "db", "uid": "s-1"}]},
  "spec": {"accessModes": ["ReadWriteOnce"], "volumeName": "pv-1",
           "resources": {"requests": {"storage": "1Gi"}, "limits": {"storage": "2Gi"}},
           "selector": {"matchLabels": {"tier": "db"}}},
  "status": {"phase": "Bound"}})json");

snapshot::SnapshotClients ClientsOf(const ScriptedHttpServer& server, base::Clock& clock,
                                    double qps = 0, int burst = 0) {
  kube::RestConfig config;
  config.server = server.url();
  config.qps = qps;
  config.burst = burst;
  auto clients = snapshot::SnapshotClients::Create(config, clock);
  EXPECT_TRUE(clients.ok()) << clients.error().message;
  return clients.ok() ? std::move(clients).value() : snapshot::SnapshotClients{};
}

class ControllerApiClientTest : public ::testing::Test {
 protected:
  ScriptedHttpServer server_;
  base::FakeClock clock_;
  snapshot::SnapshotClients clients_ = ClientsOf(server_, clock_);
  ControllerApiClient api_{clients_};
};

TEST_F(ControllerApiClientTest, UpdateClaimFinalizersPutsTheServersClaimWithOurFinalizers) {
  server_.Script({200, {}, {kServerClaim.dump()}});
  nlohmann::json answer = kServerClaim;
  answer["metadata"]["resourceVersion"] = "22";
  server_.Script({200, {}, {answer.dump()}});

  auto claim = Claim([](kube::PersistentVolumeClaim& c) {
    c.metadata.resource_version = "21";
    c.metadata.finalizers = {"kubernetes.io/pvc-protection",
                             "snapshot.storage.kubernetes.io/pvc-as-source-protection"};
  });
  auto updated = api_.UpdateClaimFinalizers(claim);

  ASSERT_TRUE(updated.ok()) << updated.error().message;
  EXPECT_EQ(updated->metadata.resource_version, "22");
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, kClaimPath);
  EXPECT_EQ(requests[1].method, "PUT");
  EXPECT_EQ(requests[1].target, kClaimPath);
  nlohmann::json want = kServerClaim;
  want["metadata"]["finalizers"] = claim.metadata.finalizers;
  EXPECT_EQ(nlohmann::json::parse(requests[1].body), want);
}

TEST_F(ControllerApiClientTest, UpdateClaimFinalizersSendsOurResourceVersionAndDropsAnEmptyList) {
  server_.Script({200, {}, {kServerClaim.dump()}});
  server_.Script({409,
                  {{"Content-Type", "application/json"}},
                  {StatusBody(409, "Conflict", "the object has been modified")}});

  auto claim = Claim([](kube::PersistentVolumeClaim& c) { c.metadata.resource_version = "20"; });
  auto updated = api_.UpdateClaimFinalizers(claim);

  ASSERT_FALSE(updated.ok());
  EXPECT_TRUE(updated.error().IsHttp(409));
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  nlohmann::json want = kServerClaim;
  want["metadata"].erase("finalizers");
  want["metadata"]["resourceVersion"] = "20";
  EXPECT_EQ(nlohmann::json::parse(requests[1].body), want);
}

TEST_F(ControllerApiClientTest, UpdateClaimFinalizersOfAMissingClaimIsNotFoundWithoutAPut) {
  server_.Script({404,
                  {{"Content-Type", "application/json"}},
                  {StatusBody(404, "NotFound", "persistentvolumeclaims \"claim-1\" not found")}});

  auto updated = api_.UpdateClaimFinalizers(Claim());

  ASSERT_FALSE(updated.ok());
  EXPECT_TRUE(updated.error().IsHttp(404));
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(ControllerApiClientTest, UpdateClaimFinalizersRefusesABodyThatIsNoClaim) {
  server_.Script({200, {}, {R"(["not", "an", "object"])"}});

  auto updated = api_.UpdateClaimFinalizers(Claim());

  ASSERT_FALSE(updated.ok());
  EXPECT_EQ(updated.error().message, "decoding PersistentVolumeClaim: not an object with metadata");
  EXPECT_EQ(server_.requests().size(), 1u);
}

// The claim as the API server answers a PUT that added `finalizers`, at
// resourceVersion `rv`.
nlohmann::json ServerClaimWith(const std::vector<std::string>& finalizers, const std::string& rv) {
  nlohmann::json claim = kServerClaim;
  claim["metadata"]["finalizers"] = finalizers;
  claim["metadata"]["resourceVersion"] = rv;
  return claim;
}

const std::vector<std::string> kProtected = {"kubernetes.io/pvc-protection",
                                             std::string(kClaimAsSourceFinalizer)};

// §9.4: a snapshot's source claim gets pvc-as-source-protection and loses it
// again - one GET for the two PUTs: the removal starts from the answer to
// our own addition, the claim not having changed since.
TEST_F(ControllerApiClientTest, ProtectingTheSourceOfOneSnapshotReadsTheClaimOnce) {
  const nlohmann::json added = ServerClaimWith(kProtected, "22");
  server_.Script({200, {}, {kServerClaim.dump()}});
  server_.Script({200, {}, {added.dump()}});
  server_.Script({200, {}, {ServerClaimWith({"kubernetes.io/pvc-protection"}, "23").dump()}});

  auto add = api_.UpdateClaimFinalizers(Claim([](kube::PersistentVolumeClaim& c) {
    c.metadata.resource_version = "21";
    c.metadata.finalizers.assign(kProtected.begin(), kProtected.end());
  }));
  ASSERT_TRUE(add.ok()) << add.error().message;
  auto remove = api_.UpdateClaimFinalizers(Claim([](kube::PersistentVolumeClaim& c) {
    c.metadata.resource_version = "22";
    c.metadata.finalizers = {"kubernetes.io/pvc-protection"};
  }));
  ASSERT_TRUE(remove.ok()) << remove.error().message;

  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[1].method, "PUT");
  EXPECT_EQ(requests[2].method, "PUT");
  EXPECT_EQ(requests[2].target, kClaimPath);
  EXPECT_EQ(nlohmann::json::parse(requests[2].body),
            ServerClaimWith({"kubernetes.io/pvc-protection"}, "22"));
}

TEST_F(ControllerApiClientTest, ClaimChangedSinceOurPutIsReadFresh) {
  server_.Script({200, {}, {kServerClaim.dump()}});
  server_.Script({200, {}, {ServerClaimWith(kProtected, "22").dump()}});
  nlohmann::json changed = ServerClaimWith(kProtected, "23");
  changed["metadata"]["labels"] = {{"app", "db"}};  // another writer's change
  server_.Script({200, {}, {changed.dump()}});
  server_.Script({200, {}, {ServerClaimWith({"kubernetes.io/pvc-protection"}, "24").dump()}});

  auto add = api_.UpdateClaimFinalizers(Claim([](kube::PersistentVolumeClaim& c) {
    c.metadata.resource_version = "21";
    c.metadata.finalizers.assign(kProtected.begin(), kProtected.end());
  }));
  ASSERT_TRUE(add.ok()) << add.error().message;
  auto remove = api_.UpdateClaimFinalizers(Claim([](kube::PersistentVolumeClaim& c) {
    c.metadata.resource_version = "23";
    c.metadata.finalizers = {"kubernetes.io/pvc-protection"};
  }));
  ASSERT_TRUE(remove.ok()) << remove.error().message;

  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[2].method, "GET");
  EXPECT_EQ(requests[3].method, "PUT");
  nlohmann::json want = changed;
  want["metadata"]["finalizers"] = {"kubernetes.io/pvc-protection"};
  EXPECT_EQ(nlohmann::json::parse(requests[3].body), want);
}

// The finalizer's addition starts from a fresh read (ClaimFinalizer::Add):
// the PUT sends that read's JSON back, at its resourceVersion, without
// reading the claim a second time.
TEST_F(ControllerApiClientTest, TheUpdateAfterGetClaimSendsTheReadJsonWithoutReadingAgain) {
  server_.Script({200, {}, {kServerClaim.dump()}});
  server_.Script({200, {}, {ServerClaimWith(kProtected, "22").dump()}});

  auto fresh = api_.GetClaim("default", "claim-1");
  ASSERT_TRUE(fresh.ok()) << fresh.error().message;
  EXPECT_EQ(fresh->metadata.resource_version, "21");
  kube::PersistentVolumeClaim claim = *fresh;
  claim.metadata.finalizers.emplace_back(kClaimAsSourceFinalizer);
  auto added = api_.UpdateClaimFinalizers(claim);
  ASSERT_TRUE(added.ok()) << added.error().message;

  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, kClaimPath);
  EXPECT_EQ(requests[1].method, "PUT");
  EXPECT_EQ(nlohmann::json::parse(requests[1].body), ServerClaimWith(kProtected, "21"));
}

// A claim cache behind our own removal asks for the removal again: the
// fresh read already lacks the finalizer, so nothing is written (a PUT at the
// cache's resourceVersion could only conflict).
TEST_F(ControllerApiClientTest, UpdateClaimFinalizersWritesNothingWhenTheServerHasThemAlready) {
  server_.Script({200, {}, {ServerClaimWith({"kubernetes.io/pvc-protection"}, "23").dump()}});

  auto removed = api_.UpdateClaimFinalizers(Claim([](kube::PersistentVolumeClaim& c) {
    c.metadata.resource_version = "22";
    c.metadata.finalizers = {"kubernetes.io/pvc-protection"};
  }));

  ASSERT_TRUE(removed.ok()) << removed.error().message;
  EXPECT_EQ(removed->metadata.resource_version, "23");
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "GET");
}

// Once the finalizer is gone nothing is kept: the next protection reads
// the claim fresh.
TEST_F(ControllerApiClientTest, ClaimIsReadFreshAfterItsFinalizerWent) {
  server_.Script({200, {}, {ServerClaimWith(kProtected, "22").dump()}});
  server_.Script({200, {}, {ServerClaimWith({"kubernetes.io/pvc-protection"}, "23").dump()}});
  server_.Script({200, {}, {ServerClaimWith({"kubernetes.io/pvc-protection"}, "23").dump()}});
  server_.Script({200, {}, {ServerClaimWith(kProtected, "24").dump()}});

  auto remove = api_.UpdateClaimFinalizers(Claim([](kube::PersistentVolumeClaim& c) {
    c.metadata.resource_version = "22";
    c.metadata.finalizers = {"kubernetes.io/pvc-protection"};
  }));
  ASSERT_TRUE(remove.ok()) << remove.error().message;
  auto add = api_.UpdateClaimFinalizers(Claim([](kube::PersistentVolumeClaim& c) {
    c.metadata.resource_version = "23";
    c.metadata.finalizers.assign(kProtected.begin(), kProtected.end());
  }));
  ASSERT_TRUE(add.ok()) << add.error().message;

  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[2].method, "GET");
  EXPECT_EQ(requests[3].method, "PUT");
}

// §9.14: the answer to our PUT that added the finalizer is what a lagging
// cache will show, without a request; the answer to one that removed it is
// nothing to go by.
TEST_F(ControllerApiClientTest, OurLastWriteWithTheFinalizerIsKeptForTheRemoval) {
  server_.Script({200, {}, {ServerClaimWith({"kubernetes.io/pvc-protection"}, "22").dump()}});
  server_.Script({200, {}, {ServerClaimWith(kProtected, "23").dump()}});
  server_.Script({200, {}, {ServerClaimWith({"kubernetes.io/pvc-protection"}, "24").dump()}});
  EXPECT_FALSE(api_.WrittenClaimWithFinalizer("default", "claim-1"));

  ASSERT_TRUE(api_.GetClaim("default", "claim-1").ok());
  EXPECT_FALSE(api_.WrittenClaimWithFinalizer("default", "claim-1")) << "read without it";
  ASSERT_TRUE(api_.UpdateClaimFinalizers(Claim([](kube::PersistentVolumeClaim& c) {
                    c.metadata.resource_version = "22";
                    c.metadata.finalizers.assign(kProtected.begin(), kProtected.end());
                  }))
                  .ok());
  std::optional<kube::PersistentVolumeClaim> written =
      api_.WrittenClaimWithFinalizer("default", "claim-1");
  ASSERT_TRUE(written);
  EXPECT_EQ(written->metadata.resource_version, "23");
  ASSERT_EQ(written->metadata.finalizers.size(), kProtected.size());
  for (size_t i = 0; i < kProtected.size(); ++i) {
    EXPECT_EQ(written->metadata.finalizers[i], kProtected[i]);
  }
  EXPECT_EQ(server_.requests().size(), 2u);

  ASSERT_TRUE(api_.UpdateClaimFinalizers(Claim([](kube::PersistentVolumeClaim& c) {
                    c.metadata.resource_version = "23";
                    c.metadata.finalizers = {"kubernetes.io/pvc-protection"};
                  }))
                  .ok());
  EXPECT_FALSE(api_.WrittenClaimWithFinalizer("default", "claim-1"));
}

// docs/snapshots.md §4.1: claims and volumes go through the core clientset,
// the snapshot kinds through the snapshot clientset, each with its own
// QPS/burst limiter - a snapshot write never waits behind a claim read.
TEST(ControllerApiClientBucketsTest, SnapshotRequestsDoNotWaitBehindCoreRequests) {
  ScriptedHttpServer server;
  base::FakeClock clock;
  snapshot::SnapshotClients clients = ClientsOf(server, clock, /*qps=*/1, /*burst=*/1);
  ControllerApiClient api(clients);
  server.Script(
      {200, {}, {R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv-1"}})"}});
  server.Script(
      {200,
       {},
       {R"({"apiVersion":"snapshot.storage.k8s.io/v1","kind":"VolumeSnapshot","metadata":{"name":"snap-1","namespace":"default"}})"}});
  server.Script({200, {}, {kServerClaim.dump()}});

  EXPECT_TRUE(
      testsupport::PassesUnthrottled(clock, [&] { ASSERT_TRUE(api.GetVolume("pv-1").ok()); }));
  EXPECT_TRUE(testsupport::PassesUnthrottled(clock, [&] {
    ASSERT_TRUE(api.GetSnapshot("default", "snap-1").ok());
  })) << "the snapshot read waited for the token the volume read spent";
  EXPECT_FALSE(testsupport::PassesUnthrottled(clock, [&] {
    ASSERT_TRUE(api.GetClaim("default", "claim-1").ok());
  })) << "the core bucket (burst 1) is empty until a second has passed";
}

}  // namespace
}  // namespace snapshot_controller::testing
