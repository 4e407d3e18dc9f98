// docs/snapshots.md §3.4 create steps 4 and 5: CreateSnapshot's parameters
// are the class parameters without the 8 reserved keys upstream knows; any
// other csi.storage.k8s.io/ key is an error; --extra-create-metadata adds
// the VolumeSnapshot's and the content's names.
#include "snapshotter/create_parameters.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "snapshotter/names.h"

namespace snapshotter {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

kube::VolumeSnapshotContent Content() {
  kube::VolumeSnapshotContent content;
  content.metadata.name = "content-1";
  content.spec.volume_snapshot_ref.name = "snap-1";
  content.spec.volume_snapshot_ref.namespace_ = "default";
  return content;
}

TEST(CreateParameters, EachKnownReservedKeyIsDropped) {
  for (std::string_view key : kKnownReservedParameterKeys) {
    auto parameters = CreateParameters({{std::string(key), "x"}, {"tier", "gold"}}, Content(),
                                       /*extra_create_metadata=*/false);
    ASSERT_TRUE(parameters.ok()) << key << ": " << parameters.error().message;
    EXPECT_THAT(*parameters, ElementsAre(Pair("tier", "gold"))) << key;
  }
}

TEST(CreateParameters, OtherReservedKeyIsTheFirstError) {
  auto parameters = CreateParameters(
      {{"csi.storage.k8s.io/zzz", "x"}, {"csi.storage.k8s.io/fstype", "ext4"}}, Content(), false);
  ASSERT_FALSE(parameters.ok());
  EXPECT_EQ(parameters.error().message,
            "failed to remove CSI Parameters of prefixed keys: found unknown parameter key "
            "\"csi.storage.k8s.io/fstype\" with reserved namespace csi.storage.k8s.io/");
}

TEST(CreateParameters, ExtraMetadataNamesSnapshotAndContent) {
  auto parameters = CreateParameters({}, Content(), /*extra_create_metadata=*/true);
  ASSERT_TRUE(parameters.ok()) << parameters.error().message;
  EXPECT_THAT(*parameters,
              ElementsAre(Pair("csi.storage.k8s.io/volumesnapshot/name", "snap-1"),
                          Pair("csi.storage.k8s.io/volumesnapshot/namespace", "default"),
                          Pair("csi.storage.k8s.io/volumesnapshotcontent/name", "content-1")));
}

TEST(CreateParameters, NoClassParametersNoMetadataIsEmpty) {
  auto parameters = CreateParameters({}, Content(), false);
  ASSERT_TRUE(parameters.ok());
  EXPECT_THAT(*parameters, IsEmpty());
}

}  // namespace
}  // namespace snapshotter
