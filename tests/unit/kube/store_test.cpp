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

TEST(Store, ReplaceIfCurrentKeepsANewerVersionStoredMeanwhile) {
  Store<VolumeAttachment> store;
  VolumeAttachment va;
  va.metadata.name = "va";
  va.metadata.resource_version = "1";
  auto seen = std::make_shared<const VolumeAttachment>(va);
  store.Upsert(seen);
  va.metadata.resource_version = "3";
  auto own_write = std::make_shared<const VolumeAttachment>(va);
  EXPECT_TRUE(store.ReplaceIfCurrent(seen, own_write));
  EXPECT_EQ(store.Get("", "va")->metadata.resource_version, "3");
  // The watch stores version 4; a write based on version 1 loses.
  va.metadata.resource_version = "4";
  store.Upsert(std::make_shared<const VolumeAttachment>(va));
  va.metadata.resource_version = "5";
  EXPECT_FALSE(store.ReplaceIfCurrent(seen, std::make_shared<const VolumeAttachment>(va)));
  EXPECT_EQ(store.Get("", "va")->metadata.resource_version, "4");
  // Nothing stored: nothing replaced.
  store.Remove(va);
  EXPECT_FALSE(store.ReplaceIfCurrent(seen, own_write));
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

// Keys view the stored object's name: replacing the object must re-point the
// key before the old object goes (asan reports a read of freed memory if it
// does not). Names longer than a short string's inline buffer live on the
// heap, which is where a dangling view would point.
TEST(Store, KeysFollowTheObjectThatReplacesTheirEntry) {
  Store<VolumeAttachment> store;
  const std::string name = "csi-0123456789abcdef0123456789abcdef";
  for (int version = 1; version <= 3; ++version) {
    VolumeAttachment va;
    va.metadata.name = name;
    va.metadata.resource_version = std::to_string(version);
    store.Upsert(std::make_shared<const VolumeAttachment>(std::move(va)));
  }
  ASSERT_NE(store.Get("", name), nullptr);
  EXPECT_EQ(store.Get("", name)->metadata.resource_version, "3");
  EXPECT_EQ(store.GetByKey(name)->metadata.resource_version, "3");
  EXPECT_EQ(store.Size(), 1u);
}

TEST(Store, NamespacedObjectsAreFoundByNamespaceSlashName) {
  Store<Secret> store;
  for (const char* ns : {"team-a", "team-b"}) {
    Secret secret;
    secret.metadata.namespace_ = ns;
    secret.metadata.name = "credentials-of-a-long-named-driver";
    store.Upsert(std::make_shared<const Secret>(std::move(secret)));
  }
  ASSERT_NE(store.GetByKey("team-b/credentials-of-a-long-named-driver"), nullptr);
  EXPECT_EQ(store.GetByKey("team-b/credentials-of-a-long-named-driver")->metadata.namespace_,
            "team-b");
  EXPECT_EQ(store.Get("team-a", "credentials-of-a-long-named-driver")->metadata.namespace_,
            "team-a");
  EXPECT_EQ(store.GetByKey("credentials-of-a-long-named-driver"), nullptr);
  EXPECT_EQ(store.GetByKey("team-c/credentials-of-a-long-named-driver"), nullptr);
}

// A list with the same object twice (never sent by an API server) keeps the
// later one, and its key stays valid after the list is gone.
TEST(Store, ReplaceKeepsTheLaterOfTwoObjectsWithOneName) {
  Store<VolumeAttachment> store;
  const std::string name = "csi-fedcba9876543210fedcba9876543210";
  std::vector<Store<VolumeAttachment>::Ptr> list;
  for (const char* version : {"1", "2"}) {
    VolumeAttachment va;
    va.metadata.name = name;
    va.metadata.resource_version = version;
    list.push_back(std::make_shared<const VolumeAttachment>(std::move(va)));
  }
  store.Replace(std::move(list));
  ASSERT_EQ(store.Size(), 1u);
  EXPECT_EQ(store.Get("", name)->metadata.resource_version, "2");
}

}  // namespace
}  // namespace kube
