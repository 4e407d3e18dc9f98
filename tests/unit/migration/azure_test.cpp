// plugins/azure_disk_test.go and azure_file_test.go of csi-translation-lib,
// PV -> CSI direction (docs/migration.md §5, §2.4, §2.5).
#include <gtest/gtest.h>

#include <functional>

#include "migration/azure_disk.h"
#include "migration/azure_file.h"
#include "migration/translate.h"
#include "test_pvs.h"

namespace migration {
namespace {

using ::migration::testing::PvWith;

// One translation of a PV, checked against the whole CSI source or the error.
struct AzureCase {
  std::string name;
  kube::PersistentVolume pv;
  kube::CSIPersistentVolumeSource want;
  std::string want_error;  // empty: success
};

class AzureTranslationTest : public ::testing::TestWithParam<AzureCase> {};

TEST_P(AzureTranslationTest, Translates) {
  const AzureCase& c = GetParam();
  auto translated = TranslateInTreePvToCsi(c.pv);
  if (!c.want_error.empty()) {
    ASSERT_FALSE(translated.ok());
    EXPECT_EQ(translated.error().message, c.want_error);
    return;
  }
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  EXPECT_EQ(std::get<kube::CSIPersistentVolumeSource>(translated->spec.source), c.want);
  // Nothing but the source changes: no topology or access-mode rewrite.
  kube::PersistentVolume rest = *translated;
  rest.spec.source = c.pv.spec.source;
  EXPECT_EQ(rest, c.pv);
}

template <class T>
T Edited(T object, const std::function<void(T&)>& edit) {
  edit(object);
  return object;
}

const std::string kDiskUri =
    "/subscriptions/12/resourceGroups/23/providers/Microsoft.Compute/disks/name";

kube::PersistentVolume DiskPv(const std::function<void(kube::AzureDiskVolumeSource&)>& edit) {
  kube::PersistentVolume pv = PvWith(Edited(kube::AzureDiskVolumeSource{}, edit));
  pv.spec.access_modes = {"ReadWriteOnce"};
  pv.spec.node_affinity = testing::Na(std::string(kGaZoneLabel), {"z"});
  return pv;
}

kube::CSIPersistentVolumeSource Csi(
    std::string driver, std::string handle,
    const std::function<void(kube::CSIPersistentVolumeSource&)>& edit = [](auto&) {}) {
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::move(driver);
  csi.volume_handle = std::move(handle);
  return Edited(std::move(csi), edit);
}

// The first two rows are TestTranslateAzureDiskInTreePVToCSI (its nil-PV and
// no-azureDisk rows cannot be written against a typed variant source).
INSTANTIATE_TEST_SUITE_P(
    TestTranslateAzureDiskInTreePVToCSI, AzureTranslationTest,
    ::testing::Values(AzureCase{"ManagedDisk", DiskPv([](auto& v) {
                                  v.disk_uri = kDiskUri;
                                  v.caching_mode = "cachingmode";
                                  v.fs_type = "fstype";
                                  v.read_only = true;
                                }),
                                Csi("disk.csi.azure.com", kDiskUri,
                                    [](auto& csi) {
                                      csi.fs_type = "fstype";
                                      csi.read_only = true;
                                      csi.volume_attributes = {{"cachingmode", "cachingmode"},
                                                               {"fstype", "fstype"},
                                                               {"kind", "Managed"}};
                                    }),
                                ""},
                      AzureCase{"DedicatedKindFails",
                                DiskPv([](auto& v) { v.kind = "Dedicated"; }),
                                {},
                                "kind(Dedicated) is not supported in csi migration"},
                      AzureCase{"SharedKindFails",
                                DiskPv([](auto& v) { v.kind = "Shared"; }),
                                {},
                                "kind(Shared) is not supported in csi migration"},
                      AzureCase{
                          "ManagedKindInAnyCaseEmptyCachingModeUnmanagedUri", DiskPv([](auto& v) {
                            v.disk_uri = "HTTPS://account/vhds/disk.vhd";
                            v.caching_mode = "";
                            v.kind = "managed";
                          }),
                          Csi("disk.csi.azure.com", "HTTPS://account/vhds/disk.vhd",
                              [](auto& csi) {
                                csi.volume_attributes = {{"cachingmode", ""}, {"kind", "Managed"}};
                              }),
                          ""}),
    [](const auto& info) { return info.param.name; });

kube::PersistentVolume FilePv(const std::function<void(kube::PersistentVolume&)>& edit) {
  kube::PersistentVolume pv = PvWith([&] {
    kube::AzureFilePersistentVolumeSource v;
    v.secret_name = "secretname";
    v.secret_namespace = "secretnamespace";
    v.share_name = "sharename";
    v.read_only = true;
    return v;
  }());
  pv.metadata.name = "uuid";
  return Edited(std::move(pv), edit);
}

kube::AzureFilePersistentVolumeSource& FileSource(kube::PersistentVolume& pv) {
  return std::get<kube::AzureFilePersistentVolumeSource>(pv.spec.source);
}

kube::CSIPersistentVolumeSource FileCsi(std::string handle) {
  return Csi("file.csi.azure.com", std::move(handle), [](auto& csi) {
    csi.read_only = true;
    csi.volume_attributes = {{"sharename", "sharename"}};
  });
}

const std::string kNoNamespace =
    "could not find a secret namespace in PersistentVolumeSource or ClaimRef";
const std::string kResourceGroup = "kubernetes.io/azure-file-resource-group";

// The first four rows are TestTranslateAzureFileInTreePVToCSI (its nil-PV
// and no-azureFile rows cannot be written against a typed variant source; its
// nodeStageSecretRef is not kept, see kube/api/core/v1/persistent_volume.h).
INSTANTIATE_TEST_SUITE_P(
    TestTranslateAzureFileInTreePVToCSI, AzureTranslationTest,
    ::testing::Values(
        AzureCase{"NoSecretNamespaceNoClaimRefFails",
                  FilePv([](auto& pv) { FileSource(pv).secret_namespace.reset(); }),
                  {},
                  kNoNamespace},
        AzureCase{"SecretNamespace", FilePv([](auto&) {}),
                  FileCsi("#secretname#sharename#uuid#secretnamespace"), ""},
        AzureCase{"ResourceGroupAnnotation", FilePv([&](auto& pv) {
                    pv.metadata.annotations = {{kResourceGroup, "rg"}};
                  }),
                  FileCsi("rg#secretname#sharename#uuid#secretnamespace"), ""},
        AzureCase{"NamespaceFromClaimRef", FilePv([&](auto& pv) {
                    pv.metadata.annotations = {{kResourceGroup, "rg"}};
                    FileSource(pv).secret_namespace.reset();
                    pv.spec.claim_ref = kube::ClaimReference{"secretnamespace", "claim", "uid"};
                  }),
                  FileCsi("rg#secretname#sharename#uuid#secretnamespace"), ""},
        AzureCase{"EmptySecretNamespaceHasNoFallback",
                  FilePv([](auto& pv) {
                    FileSource(pv).secret_namespace = "";
                    pv.spec.claim_ref = kube::ClaimReference{"ns", "claim", "uid"};
                  }),
                  {},
                  kNoNamespace},
        AzureCase{"NoDefaultNamespaceOnThePvPath",
                  FilePv([](auto& pv) {
                    FileSource(pv).secret_namespace.reset();
                    pv.spec.claim_ref = kube::ClaimReference{"", "claim", "uid"};
                  }),
                  {},
                  kNoNamespace}),
    [](const auto& info) { return info.param.name; });

// TestGetStorageAccount, through the handle: a secret name that does not
// match is not an error on the PV path but is used whole.
INSTANTIATE_TEST_SUITE_P(
    TestGetStorageAccount, AzureTranslationTest,
    ::testing::Values(AzureCase{"AccountName", FilePv([](auto& pv) {
                                  FileSource(pv).secret_name =
                                      "azure-storage-account-accountname-secret";
                                }),
                                FileCsi("#accountname#sharename#uuid#secretnamespace"), ""},
                      AzureCase{"GreedyAccountName", FilePv([](auto& pv) {
                                  FileSource(pv).secret_name =
                                      "azure-storage-account-accountname-dup-secret";
                                }),
                                FileCsi("#accountname-dup#sharename#uuid#secretnamespace"), ""},
                      AzureCase{"InvalidIsUsedWhole",
                                FilePv([](auto& pv) { FileSource(pv).secret_name = "invalid"; }),
                                FileCsi("#invalid#sharename#uuid#secretnamespace"), ""}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace migration
