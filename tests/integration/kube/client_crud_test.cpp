// kube::Client against the real kube-apiserver: every verb the attacher uses,
// on every kind it uses, as admin and as the RBAC-limited attacher identity.
#include <gtest/gtest.h>

#include <set>

#include "kube/client/api_error.h"
#include "kube/api/json_patch.h"
#include "tests/integration/kube/cluster_fixture.h"
#include "tests/support/test_objects.h"

namespace kube {
namespace {

using testobjects::CsiPv;
using testobjects::Node;
using testobjects::Va;

class ClientCrudTest : public ClusterTest {};

TEST_F(ClientCrudTest, VolumeAttachmentCreateGetListPatchDelete) {
  auto created = admin_->Create(Va("crud-va", "drv.example.com", "crud-pv", "node-1"));
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_FALSE(created->metadata.resource_version.empty());

  auto got = attacher_->Get<VolumeAttachment>("", "crud-va");
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(got->spec.attacher, "drv.example.com");
  EXPECT_EQ(got->spec.source.persistent_volume_name.value_or(""), "crud-pv");

  auto list = attacher_->List<VolumeAttachment>("");
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_FALSE(list->metadata.resource_version.empty());
  bool found = false;
  for (const auto& va : list->items) found |= va.metadata.name == "crud-va";
  EXPECT_TRUE(found);

  // Merge patch on the main resource: finalizer + annotation (as the attacher).
  auto merged = attacher_->Patch<VolumeAttachment>(
      "", "crud-va", PatchType::kMerge,
      R"({"metadata":{"finalizers":["external-attacher/drv-example-com"],"annotations":{"csi.alpha.kubernetes.io/node-id":"n1"}}})");
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged->metadata.finalizers,
            std::vector<InternedString>{"external-attacher/drv-example-com"});

  // Status subresource: attached + metadata (as the attacher).
  auto status = attacher_->Patch<VolumeAttachment>(
      "", "crud-va", PatchType::kMerge,
      R"({"status":{"attached":true,"attachmentMetadata":{"dev":"/dev/xvdb"}}})", "status");
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_TRUE(status->status.attached);
  ASSERT_TRUE(status->status.attachment_metadata.contains("dev"));
  EXPECT_EQ(status->status.attachment_metadata.find("dev")->second, "/dev/xvdb");

  // A status write through the main resource is ignored by the server.
  auto ignored = admin_->Patch<VolumeAttachment>("", "crud-va", PatchType::kMerge,
                                                 R"({"status":{"attached":false}})");
  ASSERT_TRUE(ignored.ok()) << ignored.error().message;
  EXPECT_TRUE(ignored->status.attached);

  // JSON patch with a failing test op is rejected, leaving the object alone.
  JsonPatch wrong_test;
  wrong_test.Test("/metadata/finalizers/0", "someone-else").Remove("/metadata/finalizers/0");
  auto rejected =
      attacher_->Patch<VolumeAttachment>("", "crud-va", PatchType::kJson, wrong_test.Serialize());
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.error().code, 422) << rejected.error().message;

  JsonPatch remove;
  remove.Test("/metadata/finalizers/0", "external-attacher/drv-example-com")
      .Remove("/metadata/finalizers/0");
  auto removed =
      attacher_->Patch<VolumeAttachment>("", "crud-va", PatchType::kJson, remove.Serialize());
  ASSERT_TRUE(removed.ok()) << removed.error().message;
  EXPECT_TRUE(removed->metadata.finalizers.empty());

  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "crud-va").ok());
  auto gone = admin_->Get<VolumeAttachment>("", "crud-va");
  ASSERT_FALSE(gone.ok());
  EXPECT_TRUE(IsNotFound(gone.error())) << gone.error().message;
}

TEST_F(ClientCrudTest, PersistentVolumeFinalizerJsonPatchAndDelete) {
  auto created = admin_->Create(CsiPv("crud-pv", "drv.example.com"));
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_FALSE(created->metadata.has_finalizers_field);

  JsonPatch add;
  add.Test("/metadata/finalizers", nullptr)
      .Add("/metadata/finalizers", nlohmann::json::array({"external-attacher/x"}));
  auto patched =
      attacher_->Patch<PersistentVolume>("", "crud-pv", PatchType::kJson, add.Serialize());
  ASSERT_TRUE(patched.ok()) << patched.error().message;
  EXPECT_EQ(patched->metadata.finalizers, std::vector<InternedString>{"external-attacher/x"});

  // The same patch again fails its test op: the list is no longer null.
  auto again = attacher_->Patch<PersistentVolume>("", "crud-pv", PatchType::kJson, add.Serialize());
  ASSERT_FALSE(again.ok());

  // Delete leaves it terminating until the finalizer goes.
  ASSERT_TRUE(admin_->Delete<PersistentVolume>("", "crud-pv").ok());
  auto terminating = attacher_->Get<PersistentVolume>("", "crud-pv");
  ASSERT_TRUE(terminating.ok()) << terminating.error().message;
  EXPECT_FALSE(terminating->metadata.deletion_timestamp.empty());
  JsonPatch remove;
  remove.Test("/metadata/finalizers/0", "external-attacher/x").Remove("/metadata/finalizers/0");
  ASSERT_TRUE(
      attacher_->Patch<PersistentVolume>("", "crud-pv", PatchType::kJson, remove.Serialize()).ok());
  auto gone = admin_->Get<PersistentVolume>("", "crud-pv");
  ASSERT_FALSE(gone.ok());
  EXPECT_TRUE(IsNotFound(gone.error()));
}

TEST_F(ClientCrudTest, CsiNodeCreateGetListDelete) {
  auto created = admin_->Create(Node("crud-node", "drv.example.com", "node-id-7"));
  ASSERT_TRUE(created.ok()) << created.error().message;
  auto got = attacher_->Get<CSINode>("", "crud-node");
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_EQ(got->spec.drivers.size(), 1u);
  EXPECT_EQ(got->spec.drivers[0].node_id, "node-id-7");
  auto list = attacher_->List<CSINode>("");
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_FALSE(list->items.empty());
  ASSERT_TRUE(admin_->Delete<CSINode>("", "crud-node").ok());
}

TEST_F(ClientCrudTest, CreatingExistingObjectIsConflict) {
  ASSERT_TRUE(admin_->Create(Node("dup-node", "d", "n")).ok());
  auto again = admin_->Create(Node("dup-node", "d", "n"));
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(IsConflict(again.error())) << again.error().message;
  ASSERT_TRUE(admin_->Delete<CSINode>("", "dup-node").ok());
}

TEST_F(ClientCrudTest, PagingWithSmallLimitReturnsEveryObjectExactlyOnce) {
  constexpr int kCount = 23;
  for (int i = 0; i < kCount; ++i) {
    ASSERT_TRUE(admin_->Create(Va("page-va-" + std::to_string(i), "pager", "pv", "n")).ok());
  }
  std::multiset<std::string> seen;
  ListOptions options;
  options.limit = 4;
  int pages = 0;
  do {
    auto page = attacher_->List<VolumeAttachment>("", options);
    ASSERT_TRUE(page.ok()) << page.error().message;
    EXPECT_LE(page->items.size(), 4u);
    for (const auto& va : page->items) {
      if (va.spec.attacher == "pager") seen.insert(va.metadata.name);
    }
    options.continue_token = page->metadata.continue_token;
    ++pages;
  } while (!options.continue_token.empty());
  EXPECT_GE(pages, kCount / 4);
  EXPECT_EQ(seen.size(), static_cast<size_t>(kCount));
  for (const auto& name : seen) EXPECT_EQ(seen.count(name), 1u) << name;
  for (int i = 0; i < kCount; ++i) {
    ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "page-va-" + std::to_string(i)).ok());
  }
}

TEST_F(ClientCrudTest, AttacherIdentityIsForbiddenVerbsOutsideItsRbac) {
  auto del = attacher_->Delete<PersistentVolume>("", "whatever");
  ASSERT_FALSE(del.ok());
  EXPECT_TRUE(IsForbidden(del.error())) << del.error().message;
  auto create = attacher_->Create(Node("forbidden-node", "d", "n"));
  ASSERT_FALSE(create.ok());
  EXPECT_TRUE(IsForbidden(create.error())) << create.error().message;
}

}  // namespace
}  // namespace kube
