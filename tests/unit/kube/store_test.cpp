#include "kube/runtime/store.h"

#include <gtest/gtest.h>

#include "kube/api/core/v1/secret.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace kube {
namespace {

TEST(Store, KeysClusterScopedByNameAndNamespacedByNamespaceSlashName) {
  EXPECT_EQ(Store<VolumeAttachment>::KeyOf("", "va"), "va");
  EXPECT_EQ(Store<Secret>::KeyOf("ns", "s"), "ns/s");
}

TEST(Store, UpsertReturnsPreviousVersionAndRemoveReturnsStored) {
  Store<VolumeAttachment> store;
  VolumeAttachment v1;
  v1.metadata.name = "va";
  v1.metadata.resource_version = "1";
  EXPECT_EQ(store.Upsert(std::make_shared<const VolumeAttachment>(v1)), nullptr);
  VolumeAttachment v2 = v1;
  v2.metadata.resource_version = "2";
  auto previous = store.Upsert(std::make_shared<const VolumeAttachment>(v2));
  ASSERT_NE(previous, nullptr);
  EXPECT_EQ(previous->metadata.resource_version, "1");
  EXPECT_EQ(store.Get("", "va")->metadata.resource_version, "2");
  EXPECT_EQ(store.Remove(v1)->metadata.resource_version, "2");
  EXPECT_EQ(store.Remove(v1), nullptr);
  EXPECT_EQ(store.Size(), 0u);
}

TEST(Store, SnapshotOutlivesReplacement) {
  Store<VolumeAttachment> store;
  VolumeAttachment va;
  va.metadata.name = "va";
  va.spec.attacher = "old";
  store.Upsert(std::make_shared<const VolumeAttachment>(va));
  auto held = store.Get("", "va");
  va.spec.attacher = "new";
  auto old = store.Replace({std::make_shared<const VolumeAttachment>(va)});
  EXPECT_EQ(held->spec.attacher, "old");
  EXPECT_EQ(old.size(), 1u);
  EXPECT_EQ(store.Get("", "va")->spec.attacher, "new");
  EXPECT_EQ(store.List().size(), 1u);
}

}  // namespace
}  // namespace kube
