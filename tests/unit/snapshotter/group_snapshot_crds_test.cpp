// docs/snapshots.md §3.2 step 7: the group CRD check's requests and verdicts.
#include "snapshotter/group_snapshot_crds.h"

#include <gtest/gtest.h>

#include "tests/support/scripted_http_server.h"

namespace snapshotter {
namespace {

using testsupport::ScriptedHttpServer;
using testsupport::StatusBody;

constexpr char kContents[] = "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshotcontents";
constexpr char kClasses[] = "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshotclasses";

class GroupSnapshotCrdsTest : public ::testing::Test {
 protected:
  GroupSnapshotCrdsTest() {
    kube::RestConfig config;
    config.server = server_.url();
    auto client = kube::Client::Create(config, clock_);
    EXPECT_TRUE(client.ok()) << client.error().message;
    client_ = std::move(client).value();
  }

  ScriptedHttpServer server_;
  base::FakeClock clock_;
  std::unique_ptr<kube::Client> client_;
};

TEST_F(GroupSnapshotCrdsTest, BothKindsListedWithLimitOne) {
  server_.Script({200, {}, {R"({"kind":"VolumeGroupSnapshotContentList","items":[]})"}});
  server_.Script({200, {}, {R"({"kind":"VolumeGroupSnapshotClassList","items":[]})"}});
  EXPECT_TRUE(CheckGroupSnapshotCrds(*client_).ok());
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, std::string(kContents) + "?limit=1");
  EXPECT_EQ(requests[1].target, std::string(kClasses) + "?limit=1");
}

TEST_F(GroupSnapshotCrdsTest, MissingContentsCrdIsTheErrorAndClassesAreNotAsked) {
  server_.Script(
      {404,
       {{"Content-Type", "application/json"}},
       {StatusBody(404, "NotFound", "the server could not find the requested resource")}});
  base::Status s = CheckGroupSnapshotCrds(*client_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, 404);
  EXPECT_EQ(s.error().message, "the server could not find the requested resource");
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(GroupSnapshotCrdsTest, ForbiddenClassesAreAnError) {
  server_.Script({200, {}, {R"({"items":[]})"}});
  server_.Script({403,
                  {{"Content-Type", "application/json"}},
                  {StatusBody(403, "Forbidden", "volumegroupsnapshotclasses is forbidden")}});
  base::Status s = CheckGroupSnapshotCrds(*client_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, 403);
}

}  // namespace
}  // namespace snapshotter
