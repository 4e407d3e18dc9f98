// Bad input ends in a clear attachError on the VolumeAttachment, not a crash
// or a silent skip (issue: attacher end to end, "Bad input").
#include <gtest/gtest.h>

#include "kube/api/core/v1/secret.h"
#include "tests/integration/attacher/attacher_fixture.h"

namespace attacher_it {
namespace {

class BadInputTest : public AttacherTest {
 protected:
  void SetUp() override {
    AttacherTest::SetUp();
    StartMockDriver(kDriver, 2);
    CreateCsiNodeOnce();
    StartAttacher();
  }
  void CreateCsiNodeOnce() {
    if (admin_->Get<kube::CSINode>("", "node-bad").ok()) return;
    CreateCsiNode("node-bad", kDriver, kDriver);
  }
  std::string AttachErrorOf(const std::string& va_name, const std::string& pv_name) {
    CreateVa(va_name, kDriver, pv_name, "node-bad");
    auto va = AwaitVa(va_name, HasAttachError);
    if (!va || !va->status.attach_error) return "<no attachError>";
    EXPECT_FALSE(va->status.attached);
    return va->status.attach_error->message;
  }
  static constexpr const char* kDriver = "mock-bad.csi.example.com";
};

TEST_F(BadInputTest, PvWithoutCsiSourceGivesAttachError) {
  // Raw JSON: our PV codec does not encode other sources.
  auto created = admin_->Request(
      "POST", "/api/v1/persistentvolumes",
      R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv-nfs"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"nfs":{"server":"127.0.0.1","path":"/x"}}})",
      "application/json");
  ASSERT_TRUE(created.ok()) << created.error().message;
  std::string message = AttachErrorOf("va-nfs", "pv-nfs");
  EXPECT_NE(message.find("non-CSI volume source \"nfs\""), std::string::npos) << message;
}

// (ReadWriteOncePod mixed with other modes is refused by the API server's own
// validation, so that case is covered by the handler's unit tests only.)

TEST_F(BadInputTest, ReadOnlyManyWithReadWriteOnceGivesAttachError) {
  CreatePv(CsiPv("pv-roxrwo", kDriver, "4", {"ReadOnlyMany", "ReadWriteOnce"}));
  EXPECT_EQ(AttachErrorOf("va-roxrwo", "pv-roxrwo"),
            "CSI does not support ReadOnlyMany and ReadWriteOnce on the same PersistentVolume");
}

TEST_F(BadInputTest, MissingPublishSecretGivesAttachError) {
  kube::PersistentVolume pv = CsiPv("pv-secret", kDriver, "4");
  auto& csi = std::get<kube::CSIPersistentVolumeSource>(pv.spec.source);
  csi.controller_publish_secret_ref = kube::SecretReference{"does-not-exist", "default"};
  CreatePv(pv);
  std::string message = AttachErrorOf("va-secret", "pv-secret");
  EXPECT_NE(message.find(R"(failed to load secret "default/does-not-exist")"), std::string::npos)
      << message;
}

TEST_F(BadInputTest, UnknownPersistentVolumeGivesAttachError) {
  std::string message = AttachErrorOf("va-nopv", "pv-never-created");
  EXPECT_NE(message.find("pv-never-created"), std::string::npos) << message;
}

TEST_F(BadInputTest, NodeWithoutCsiNodeGivesAttachError) {
  CreatePv(CsiPv("pv-nonode", kDriver, "4"));
  CreateVa("va-nonode", kDriver, "pv-nonode", "node-without-csinode");
  auto va = AwaitVa("va-nonode", HasAttachError);
  ASSERT_TRUE(va && va->status.attach_error);
  EXPECT_NE(va->status.attach_error->message.find("node-without-csinode"), std::string::npos)
      << va->status.attach_error->message;
}

}  // namespace
}  // namespace attacher_it
