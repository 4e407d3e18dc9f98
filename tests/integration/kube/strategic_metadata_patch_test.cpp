// StrategicMetadataPatch against the real kube-apiserver, sent as the
// attacher's RBAC-limited identity: the merge semantics kube/api/
// strategic_metadata_patch.h promises, with another client's finalizers and
// annotations on the same objects (docs/attacher.md §7 row 3).
#include "kube/api/strategic_metadata_patch.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kube/client/api_error.h"
#include "tests/integration/kube/cluster_fixture.h"
#include "tests/support/test_objects.h"

namespace kube {
namespace {

using testobjects::CsiPv;
using testobjects::Va;

constexpr const char* kOurs = "external-attacher/smp-example-com";
constexpr const char* kOther = "example.com/other-protection";
constexpr const char* kLast = "example.com/last";

class StrategicMetadataPatchTest : public ClusterTest {
 protected:
  // Writes `metadata` of VA `name` as another client (admin) would.
  static void OtherClientMerges(const std::string& name, const std::string& metadata) {
    auto patched = admin_->Patch<VolumeAttachment>("", name, PatchType::kMerge,
                                                   R"({"metadata":)" + metadata + "}");
    ASSERT_TRUE(patched.ok()) << patched.error().message;
  }

  static base::Result<VolumeAttachment> PatchVa(const std::string& name,
                                                const StrategicMetadataPatch& patch) {
    return attacher_->Patch<VolumeAttachment>("", name, PatchType::kStrategicMerge,
                                              patch.Serialize());
  }
};

TEST_F(StrategicMetadataPatchTest, AddedFinalizerJoinsAnotherOnceAndCreatesAnAbsentList) {
  ASSERT_TRUE(admin_->Create(Va("smp-add", "smp.example.com", "smp-pv", "node-1")).ok());

  auto first = PatchVa("smp-add", StrategicMetadataPatch().AddFinalizer(kOurs));
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->metadata.finalizers, std::vector<InternedString>{kOurs});

  OtherClientMerges("smp-add",
                    std::string(R"({"finalizers":[")") + kOurs + R"(",")" + kOther + R"("]})");
  // Sent again, as from a copy cached before either write: no second copy,
  // the other one kept.
  auto again = PatchVa("smp-add", StrategicMetadataPatch().AddFinalizer(kOurs));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->metadata.finalizers, (std::vector<InternedString>{kOurs, kOther}));
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "smp-add").ok());
}

// The server puts the patch's entries before those it alone holds.
TEST_F(StrategicMetadataPatchTest, AddedFinalizerJoinsAnotherClientsFinalizer) {
  ASSERT_TRUE(admin_->Create(Va("smp-join", "smp.example.com", "smp-pv", "node-1")).ok());
  OtherClientMerges("smp-join", std::string(R"({"finalizers":[")") + kOther + R"("]})");

  auto added = PatchVa("smp-join", StrategicMetadataPatch().AddFinalizer(kOurs));
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_EQ(added->metadata.finalizers, (std::vector<InternedString>{kOurs, kOther}));
  OtherClientMerges("smp-join", R"({"finalizers":null})");
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "smp-join").ok());
}

TEST_F(StrategicMetadataPatchTest, RemovedFinalizerLeavesTheOthersInOrder) {
  ASSERT_TRUE(admin_->Create(Va("smp-remove", "smp.example.com", "smp-pv", "node-1")).ok());
  OtherClientMerges("smp-remove", std::string(R"({"finalizers":[")") + kOther + R"(",")" + kOurs +
                                      R"(",")" + kLast + R"("]})");

  auto removed = PatchVa("smp-remove", StrategicMetadataPatch().RemoveFinalizer(kOurs));
  ASSERT_TRUE(removed.ok()) << removed.error().message;
  EXPECT_EQ(removed->metadata.finalizers, (std::vector<InternedString>{kOther, kLast}));
  // Sent again, as from a stale copy that still shows ours: nothing changes.
  auto again = PatchVa("smp-remove", StrategicMetadataPatch().RemoveFinalizer(kOurs));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->metadata.finalizers, (std::vector<InternedString>{kOther, kLast}));
  OtherClientMerges("smp-remove", R"({"finalizers":null})");
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "smp-remove").ok());
}

// The detach's last write (attacher/csi_handler.cpp MarkDetached): the
// answer is the object as deleted, with no finalizer left.
TEST_F(StrategicMetadataPatchTest, RemovingTheLastFinalizerOfADeletedObjectDeletesIt) {
  ASSERT_TRUE(admin_->Create(Va("smp-last", "smp.example.com", "smp-pv", "node-1")).ok());
  ASSERT_TRUE(PatchVa("smp-last", StrategicMetadataPatch().AddFinalizer(kOurs)).ok());
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "smp-last").ok());

  auto removed = PatchVa("smp-last", StrategicMetadataPatch().RemoveFinalizer(kOurs));
  ASSERT_TRUE(removed.ok()) << removed.error().message;
  EXPECT_FALSE(removed->metadata.deletion_timestamp.empty());
  EXPECT_TRUE(removed->metadata.finalizers.empty());
  auto gone = admin_->Get<VolumeAttachment>("", "smp-last");
  ASSERT_FALSE(gone.ok());
  EXPECT_TRUE(IsNotFound(gone.error())) << gone.error().message;
}

TEST_F(StrategicMetadataPatchTest, AnnotationIsSetAndRemovedNextToAnotherClientsKeys) {
  ASSERT_TRUE(admin_->Create(Va("smp-annotate", "smp.example.com", "smp-pv", "node-1")).ok());

  // No map yet: the patch creates it.
  auto created = PatchVa("smp-annotate", StrategicMetadataPatch().SetAnnotation("ours/key", "1"));
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_EQ(created->metadata.annotations, (StringMap{{"ours/key", "1"}}));

  OtherClientMerges("smp-annotate", R"({"annotations":{"other.example.com/a":"x"}})");
  auto changed = PatchVa("smp-annotate", StrategicMetadataPatch().SetAnnotation("ours/key", "2"));
  ASSERT_TRUE(changed.ok()) << changed.error().message;
  EXPECT_EQ(changed->metadata.annotations,
            (StringMap{{"other.example.com/a", "x"}, {"ours/key", "2"}}));

  // A null value deletes that key alone.
  auto removed =
      attacher_->Patch<VolumeAttachment>("", "smp-annotate", PatchType::kStrategicMerge,
                                         R"({"metadata":{"annotations":{"ours/key":null}}})");
  ASSERT_TRUE(removed.ok()) << removed.error().message;
  EXPECT_EQ(removed->metadata.annotations, (StringMap{{"other.example.com/a", "x"}}));
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "smp-annotate").ok());
}

// The attach's one VA write (attacher/csi_handler.cpp SaveFinalizerAndNodeId).
TEST_F(StrategicMetadataPatchTest, FinalizerAndAnnotationInOnePatchKeepAnotherClientsEntries) {
  ASSERT_TRUE(admin_->Create(Va("smp-both", "smp.example.com", "smp-pv", "node-1")).ok());
  OtherClientMerges("smp-both", std::string(R"({"finalizers":[")") + kOther +
                                    R"("],"annotations":{"other.example.com/a":"x"}})");

  auto both = PatchVa("smp-both",
                      StrategicMetadataPatch().AddFinalizer(kOurs).SetAnnotation("ours/key", "1"));
  ASSERT_TRUE(both.ok()) << both.error().message;
  EXPECT_EQ(both->metadata.finalizers, (std::vector<InternedString>{kOurs, kOther}));
  EXPECT_EQ(both->metadata.annotations,
            (StringMap{{"other.example.com/a", "x"}, {"ours/key", "1"}}));
  OtherClientMerges("smp-both", R"({"finalizers":null})");
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "smp-both").ok());
}

TEST_F(StrategicMetadataPatchTest, PersistentVolumeFinalizerIsAddedAndRemovedNextToAnother) {
  PersistentVolume pv = CsiPv("smp-pv", "smp.example.com");
  pv.metadata.finalizers = {kOther};
  ASSERT_TRUE(admin_->Create(pv).ok());

  auto added =
      attacher_->Patch<PersistentVolume>("", "smp-pv", PatchType::kStrategicMerge,
                                         StrategicMetadataPatch().AddFinalizer(kOurs).Serialize());
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_EQ(added->metadata.finalizers, (std::vector<InternedString>{kOurs, kOther}));

  auto removed = attacher_->Patch<PersistentVolume>(
      "", "smp-pv", PatchType::kStrategicMerge,
      StrategicMetadataPatch().RemoveFinalizer(kOurs).Serialize());
  ASSERT_TRUE(removed.ok()) << removed.error().message;
  EXPECT_EQ(removed->metadata.finalizers, std::vector<InternedString>{kOther});
  ASSERT_TRUE(admin_
                  ->Patch<PersistentVolume>("", "smp-pv", PatchType::kMerge,
                                            R"({"metadata":{"finalizers":null}})")
                  .ok());
  ASSERT_TRUE(admin_->Delete<PersistentVolume>("", "smp-pv").ok());
}

}  // namespace
}  // namespace kube
