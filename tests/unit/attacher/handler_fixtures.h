// Objects and the table runner shared by the CsiHandler tests. The defaults
// describe one healthy attachment: VA "va-1" of driver csi.example.com on
// node "node-1" for PV "pv-1" (handle "vol-1", RWO, our finalizer already
// set), whose CSINode reports node ID "node-id-1". Each case edits what it
// is about.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "attacher/csi_handler.h"
#include "attacher/names.h"
#include "base/clock.h"
#include "base/result.h"
#include "tests/unit/attacher/fakes.h"

namespace attacher::handler_testing {

inline constexpr std::string_view kDriver = "csi.example.com";
inline const std::string kFinalizer = "external-attacher/csi-example-com";
// FakeClock's wall time, as metav1.Time writes it.
inline constexpr std::string_view kNow = "2023-11-14T22:13:20Z";
inline constexpr std::string_view kDeleted = "2023-11-14T22:00:00Z";
// An API failure to inject.
inline const base::Error kBoom = base::Error::Http(500, "boom");

template <class T>
using Edit = std::function<void(T&)>;

template <class T>
T Edited(T object, const Edit<T>& edit) {
  if (edit) edit(object);
  return object;
}

inline kube::CSIPersistentVolumeSource CsiSource(std::string handle = "vol-1") {
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kDriver);
  csi.volume_handle = std::move(handle);
  return csi;
}

inline kube::PersistentVolume Pv(const Edit<kube::PersistentVolume>& edit = {}) {
  kube::PersistentVolume pv;
  pv.metadata.name = "pv-1";
  pv.metadata.finalizers = {kFinalizer};
  pv.metadata.has_finalizers_field = true;
  pv.spec.access_modes = {"ReadWriteOnce"};
  pv.spec.source = CsiSource();
  return Edited(std::move(pv), edit);
}

// Edits the CSI source of a PV built by Pv().
inline Edit<kube::PersistentVolume> WithCsi(
    std::function<void(kube::CSIPersistentVolumeSource&)> f) {
  return [f](kube::PersistentVolume& pv) {
    f(std::get<kube::CSIPersistentVolumeSource>(pv.spec.source));
  };
}

inline kube::VolumeAttachment Va(const Edit<kube::VolumeAttachment>& edit = {}) {
  kube::VolumeAttachment va;
  va.metadata.name = "va-1";
  va.spec.attacher = std::string(kDriver);
  va.spec.node_name = "node-1";
  va.spec.source.persistent_volume_name = "pv-1";
  return Edited(std::move(va), edit);
}

// What a successful attach leaves behind.
inline kube::VolumeAttachment AttachedVa(const Edit<kube::VolumeAttachment>& edit = {}) {
  kube::VolumeAttachment va = Va();
  va.metadata.finalizers = {kFinalizer};
  va.metadata.has_finalizers_field = true;
  va.metadata.annotations[kNodeIdAnnotation] = "node-id-1";
  va.status.attached = true;
  va.status.attachment_metadata["devicePath"] = "/dev/sdb";
  return Edited(std::move(va), edit);
}

// An attached VA being deleted.
inline kube::VolumeAttachment DeletedVa(const Edit<kube::VolumeAttachment>& edit = {}) {
  kube::VolumeAttachment va = AttachedVa();
  va.metadata.deletion_timestamp = std::string(kDeleted);
  return Edited(std::move(va), edit);
}

inline std::shared_ptr<const kube::PersistentVolumeSpec> InlineSpec(
    const Edit<kube::PersistentVolumeSpec>& edit = {}) {
  kube::PersistentVolumeSpec spec;
  spec.access_modes = {"ReadWriteMany"};
  spec.source = CsiSource("inline-vol");
  return std::make_shared<const kube::PersistentVolumeSpec>(Edited(std::move(spec), edit));
}

inline kube::CSINode CsiNode(const Edit<kube::CSINode>& edit = {}) {
  kube::CSINode node;
  node.metadata.name = "node-1";
  kube::CSINodeDriver driver;
  driver.name = std::string(kDriver);
  driver.node_id = "node-id-1";
  node.spec.drivers.push_back(std::move(driver));
  return Edited(std::move(node), edit);
}

inline kube::Secret Secret(std::string ns, std::string name, kube::StringMap data) {
  kube::Secret secret;
  secret.metadata.namespace_ = std::move(ns);
  secret.metadata.name = std::move(name);
  secret.data = std::move(data);
  return secret;
}

// The Publish of the default PV.
inline PublishRequest Publish(const Edit<PublishRequest>& edit = {}) {
  PublishRequest r;
  r.volume_id = "vol-1";
  r.node_id = "node-id-1";
  r.capability.access_mode = AccessMode::kSingleNodeWriter;
  return Edited(std::move(r), edit);
}

inline UnpublishRequest Unpublish(const Edit<UnpublishRequest>& edit = {}) {
  UnpublishRequest r;
  r.volume_id = "vol-1";
  r.node_id = "node-id-1";
  return Edited(std::move(r), edit);
}

template <class T>
void Fill(kube::Store<T>& store, const std::vector<T>& objects) {
  for (const T& object : objects) store.Upsert(std::make_shared<const T>(object));
}

// One SyncVolumeAttachment of `va` (also in the VA cache), checked against
// the exact API and CSI calls it must make, in order.
struct SyncCase {
  std::string name = {};
  kube::VolumeAttachment va = {};
  std::vector<kube::PersistentVolume> pvs = {Pv()};
  std::vector<kube::CSINode> csi_nodes = {CsiNode()};
  std::vector<kube::Secret> secrets = {};
  CsiHandler::Options options = {};
  std::vector<ApiFailure> api_failures = {};
  std::optional<kube::VolumeAttachment> va_patch_reply =
      {};  // FakeKubernetesApi's default if unset
  PublisherScript publisher = {};
  bool force_sync = false;
  std::vector<ApiCall> want_api = {};
  std::vector<CsiCall> want_csi = {};
  std::string want_error = {};  // empty: success
};

inline void RunSyncCase(const SyncCase& c) {
  kube::Store<kube::VolumeAttachment> vas;
  Fill(vas, {c.va});
  kube::Store<kube::PersistentVolume> pvs;
  Fill(pvs, c.pvs);
  kube::Store<kube::CSINode> csi_nodes;
  Fill(csi_nodes, c.csi_nodes);
  base::FakeClock clock;
  FakeKubernetesApi api(c.api_failures);
  for (const kube::Secret& secret : c.secrets) api.AddSecret(secret);
  if (c.va_patch_reply) api.SetVolumeAttachmentReply(*c.va_patch_reply);
  FakeVolumePublisher publisher(c.publisher);
  CsiHandler handler(std::string(kDriver), vas, pvs, csi_nodes, api, publisher, c.options, clock);
  if (c.force_sync) handler.RequestForceSync(c.va.metadata.name);

  base::Status status = handler.SyncVolumeAttachment(c.va);

  if (c.want_error.empty()) {
    EXPECT_TRUE(status.ok()) << status.error().message;
  } else {
    EXPECT_FALSE(status.ok());
    EXPECT_EQ(status.error().message, c.want_error);
  }
  EXPECT_THAT(api.calls(), ::testing::ElementsAreArray(c.want_api));
  std::vector<std::string> want_csi;
  for (const CsiCall& call : c.want_csi) want_csi.push_back(Describe(call));
  EXPECT_THAT(publisher.calls(), ::testing::ElementsAreArray(want_csi));
}

// A fixture's world for CsiHandler tests that sync more than one object: the
// default PV and CSINode cached, fakes with no failures, an empty VA cache.
class HandlerWorld : public ::testing::Test {
 protected:
  HandlerWorld() {
    Fill(pvs_, {Pv()});
    Fill(csi_nodes_, {CsiNode()});
  }

  kube::Store<kube::VolumeAttachment> vas_;
  kube::Store<kube::PersistentVolume> pvs_;
  kube::Store<kube::CSINode> csi_nodes_;
  base::FakeClock clock_;
  FakeKubernetesApi api_;
  FakeVolumePublisher publisher_;
};

// Status merge patch bodies recording an error at kNow.
inline std::string AttachErrorBody(const std::string& message,
                                   std::optional<int> error_code = std::nullopt) {
  nlohmann::json error = {{"message", message}, {"time", kNow}};
  if (error_code) error["errorCode"] = *error_code;
  return nlohmann::json{{"status", {{"attachError", error}}}}.dump();
}
inline std::string DetachErrorBody(const std::string& message) {
  nlohmann::json error = {{"message", message}, {"time", kNow}};
  return nlohmann::json{{"status", {{"detachError", error}}}}.dump();
}

}  // namespace attacher::handler_testing
