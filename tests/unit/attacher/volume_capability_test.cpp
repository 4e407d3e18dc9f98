// docs/attacher.md §5.3 step 4: block vs mount capability, fsType falling back to
// --default-fstype, mountOptions as mount flags.
#include "attacher/volume_capability.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace attacher {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

kube::PersistentVolumeSpec Spec(std::string volume_mode = "") {
  kube::PersistentVolumeSpec spec;
  spec.access_modes = {"ReadOnlyMany"};
  spec.volume_mode = std::move(volume_mode);
  spec.mount_options = {"noatime"};
  return spec;
}

kube::CSIPersistentVolumeSource Csi(std::string fs_type) {
  kube::CSIPersistentVolumeSource csi;
  csi.fs_type = std::move(fs_type);
  return csi;
}

TEST(VolumeCapability, BlockModeHasNoFsTypeOrMountFlags) {
  auto capability = VolumeCapabilityFor(Spec("Block"), Csi("xfs"), false, "ext4");
  ASSERT_TRUE(capability.ok());
  EXPECT_TRUE(capability->block);
  EXPECT_EQ(capability->fs_type, "");
  EXPECT_THAT(capability->mount_flags, IsEmpty());
  EXPECT_EQ(capability->access_mode, AccessMode::kMultiNodeReaderOnly);
}

TEST(VolumeCapability, FilesystemModeMountsWithPvFsTypeAndMountOptions) {
  auto capability = VolumeCapabilityFor(Spec("Filesystem"), Csi("xfs"), false, "ext4");
  ASSERT_TRUE(capability.ok());
  EXPECT_FALSE(capability->block);
  EXPECT_EQ(capability->fs_type, "xfs");
  EXPECT_THAT(capability->mount_flags, ElementsAre("noatime"));
}

TEST(VolumeCapability, EmptyFsTypeFallsBackToDefaultWhichMayBeEmpty) {
  EXPECT_EQ(VolumeCapabilityFor(Spec(), Csi(""), false, "ext4")->fs_type, "ext4");
  EXPECT_EQ(VolumeCapabilityFor(Spec(), Csi(""), false, "")->fs_type, "");
}

TEST(VolumeCapability, AccessModeErrorIsReturned) {
  kube::PersistentVolumeSpec spec = Spec();
  spec.access_modes = {"ReadOnlyMany", "ReadWriteOnce"};
  auto capability = VolumeCapabilityFor(spec, Csi(""), false, "");
  ASSERT_FALSE(capability.ok());
  EXPECT_EQ(capability.error().message,
            "CSI does not support ReadOnlyMany and ReadWriteOnce on the same PersistentVolume");
}

}  // namespace
}  // namespace attacher
