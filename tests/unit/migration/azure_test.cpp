// plugins/azure_disk_test.go and azure_file_test.go of csi-translation-lib,
// PV -> CSI direction (MIGRATION.md §5, §2.4, §2.5).
#include <gtest/gtest.h>

#include "migration/azure_disk.h"
#include "migration/azure_file.h"
#include "migration/translate.h"
#include "test_pvs.h"

namespace migration {
namespace {

using ::migration::testing::PvWith;

// TestTranslateAzureDiskInTreePVToCSI.
TEST(TranslateAzureDiskTest, ManagedDisk) {
  auto translated = TranslateInTreePvToCsi(PvWith([&] {
    kube::AzureDiskVolumeSource v;
    v.disk_uri = "/subscriptions/12/resourceGroups/23/providers/Microsoft.Compute/disks/name";
    v.caching_mode = "cachingmode";
    v.fs_type = "fstype";
    v.read_only = true;
    return v;
  }()));
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  EXPECT_EQ(std::get<kube::CSIPersistentVolumeSource>(translated->spec.source), ([&] {
              kube::CSIPersistentVolumeSource v;
              v.driver = "disk.csi.azure.com";
              v.volume_handle =
                  "/subscriptions/12/resourceGroups/23/providers/Microsoft.Compute/disks/name";
              v.fs_type = "fstype";
              v.read_only = true;
              v.volume_attributes = {
                  {"cachingmode", "cachingmode"}, {"fstype", "fstype"}, {"kind", "Managed"}};
              return v;
            }()));
}

TEST(TranslateAzureDiskTest, KindManagedInAnyCaseAndOptionalFields) {
  auto translated = TranslateInTreePvToCsi(PvWith([&] {
    kube::AzureDiskVolumeSource v;
    v.disk_uri = "https://account/vhds/disk.vhd";
    v.caching_mode = "";
    v.kind = "managed";
    return v;
  }()));
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  const auto& csi = std::get<kube::CSIPersistentVolumeSource>(translated->spec.source);
  EXPECT_EQ(csi.volume_handle, "https://account/vhds/disk.vhd");
  EXPECT_EQ(csi.volume_attributes, (kube::StringMap{{"cachingmode", ""}, {"kind", "Managed"}}));
  EXPECT_EQ(csi.fs_type, "");
  EXPECT_FALSE(csi.read_only);
}

TEST(TranslateAzureDiskTest, UnmanagedKinds) {
  for (const std::string kind : {"Dedicated", "Shared"}) {
    auto translated = TranslateInTreePvToCsi(PvWith([&] {
      kube::AzureDiskVolumeSource v;
      v.disk_uri = "d";
      v.kind = kind;
      return v;
    }()));
    ASSERT_FALSE(translated.ok()) << kind;
    EXPECT_EQ(translated.error().message, "kind(" + kind + ") is not supported in csi migration");
  }
}

kube::PersistentVolume AzureFilePv(std::optional<std::string> secret_namespace) {
  kube::PersistentVolume pv = PvWith([&] {
    kube::AzureFilePersistentVolumeSource v;
    v.secret_name = "secretname";
    v.secret_namespace = std::move(secret_namespace);
    v.share_name = "sharename";
    v.read_only = true;
    return v;
  }());
  pv.metadata.name = "uuid";
  return pv;
}

// TestTranslateAzureFileInTreePVToCSI.
TEST(TranslateAzureFileTest, WithSecretNamespace) {
  auto translated = TranslateInTreePvToCsi(AzureFilePv("secretnamespace"));
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  EXPECT_EQ(std::get<kube::CSIPersistentVolumeSource>(translated->spec.source), ([&] {
              kube::CSIPersistentVolumeSource v;
              v.driver = "file.csi.azure.com";
              v.volume_handle = "#secretname#sharename#uuid#secretnamespace";
              v.read_only = true;
              v.volume_attributes = {{"sharename", "sharename"}};
              return v;
            }()));
}

TEST(TranslateAzureFileTest, ResourceGroupAnnotation) {
  kube::PersistentVolume pv = AzureFilePv("secretnamespace");
  pv.metadata.annotations = {{"kubernetes.io/azure-file-resource-group", "rg"}};
  auto translated = TranslateInTreePvToCsi(pv);
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  EXPECT_EQ(std::get<kube::CSIPersistentVolumeSource>(translated->spec.source).volume_handle,
            "rg#secretname#sharename#uuid#secretnamespace");
  EXPECT_EQ(translated->metadata.annotations, pv.metadata.annotations);
}

TEST(TranslateAzureFileTest, NamespaceFromClaimRef) {
  kube::PersistentVolume pv = AzureFilePv(std::nullopt);
  pv.metadata.annotations = {{"kubernetes.io/azure-file-resource-group", "rg"}};
  pv.spec.claim_ref = [&] {
    kube::ClaimReference v;
    v.namespace_ = "secretnamespace";
    v.name = "claim";
    return v;
  }();
  auto translated = TranslateInTreePvToCsi(pv);
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  EXPECT_EQ(std::get<kube::CSIPersistentVolumeSource>(translated->spec.source).volume_handle,
            "rg#secretname#sharename#uuid#secretnamespace");
}

TEST(TranslateAzureFileTest, WithoutSecretNamespace) {
  const std::string want =
      "could not find a secret namespace in PersistentVolumeSource or ClaimRef";
  auto no_claim = TranslateInTreePvToCsi(AzureFilePv(std::nullopt));
  ASSERT_FALSE(no_claim.ok());
  EXPECT_EQ(no_claim.error().message, want);
  // An empty secretNamespace is taken as it is, with no fallback.
  kube::PersistentVolume empty = AzureFilePv("");
  empty.spec.claim_ref = [&] {
    kube::ClaimReference v;
    v.namespace_ = "ns";
    return v;
  }();
  auto empty_namespace = TranslateInTreePvToCsi(empty);
  ASSERT_FALSE(empty_namespace.ok());
  EXPECT_EQ(empty_namespace.error().message, want);
}

// TestGetStorageAccount, through the handle (an invalid name is used whole).
TEST(TranslateAzureFileTest, StorageAccountFromSecretName) {
  for (const auto& [secret, account] : std::vector<std::pair<std::string, std::string>>{
           {"azure-storage-account-accountname-secret", "accountname"},
           {"azure-storage-account-accountname-dup-secret", "accountname-dup"},
           {"invalid", "invalid"}}) {
    kube::PersistentVolume pv = AzureFilePv("ns");
    std::get<kube::AzureFilePersistentVolumeSource>(pv.spec.source).secret_name = secret;
    auto translated = TranslateInTreePvToCsi(pv);
    ASSERT_TRUE(translated.ok());
    EXPECT_EQ(std::get<kube::CSIPersistentVolumeSource>(translated->spec.source).volume_handle,
              "#" + account + "#sharename#uuid#ns");
  }
}

}  // namespace
}  // namespace migration
