// ControllerApiClient::UpdateClaimFinalizers: only the finalizers (and the
// resourceVersion guarding them) come from the decoded claim; every other
// field is PUT back as the API server sent it (docs/snapshots.md §5: update,
// no patch, on claims).
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "base/clock.h"
#include "snapshot_controller/controller_api.h"
#include "tests/support/scripted_http_server.h"
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

std::unique_ptr<kube::Client> ClientOf(const ScriptedHttpServer& server, base::Clock& clock) {
  kube::RestConfig config;
  config.server = server.url();
  auto client = kube::Client::Create(config, clock);
  EXPECT_TRUE(client.ok()) << client.error().message;
  return client.ok() ? std::move(client).value() : nullptr;
}

class ControllerApiClientTest : public ::testing::Test {
 protected:
  ScriptedHttpServer server_;
  base::FakeClock clock_;
  std::unique_ptr<kube::Client> client_ = ClientOf(server_, clock_);
  ControllerApiClient api_{*client_};
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

}  // namespace
}  // namespace snapshot_controller::testing
