// OpenStack Cinder PV translation (docs/migration.md §2.3).
#include "migration/cinder.h"

#include <gtest/gtest.h>

#include "migration/translate.h"
#include "test_pvs.h"

namespace migration {
namespace {

TEST(TranslateCinderTest, CopiesIdAndFlagsOnly) {
  kube::PersistentVolume pv = testing::PvWith([&] {
    kube::CinderPersistentVolumeSource v;
    v.volume_id = "id";
    v.fs_type = "ext4";
    v.read_only = true;
    return v;
  }());
  pv.spec.access_modes = {"ReadWriteMany"};
  auto translated = TranslateInTreePvToCsi(pv);
  ASSERT_TRUE(translated.ok());
  EXPECT_EQ(std::get<kube::CSIPersistentVolumeSource>(translated->spec.source), ([&] {
              kube::CSIPersistentVolumeSource v;
              v.driver = "cinder.csi.openstack.org";
              v.volume_handle = "id";
              v.fs_type = "ext4";
              v.read_only = true;
              return v;
            }()));
  EXPECT_EQ(translated->spec.access_modes, pv.spec.access_modes);
}

}  // namespace
}  // namespace migration
