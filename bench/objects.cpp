#include "bench/objects.h"

#include <cstdio>

#include "attacher/names.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "tests/support/test_objects.h"

namespace bench {
namespace {

kube::PersistentVolume Pv(const std::string& name, bool attached) {
  kube::PersistentVolume pv = kube::testobjects::CsiPv(name, kDriverName, /*handle=*/name);
  if (attached) pv.metadata.finalizers = {attacher::FinalizerFor(kDriverName)};
  return pv;
}

kube::VolumeAttachment Va(const std::string& name, bool attached) {
  kube::VolumeAttachment va = kube::testobjects::Va(name, kDriverName, /*pv=*/name, kNodeName);
  if (attached) {
    va.metadata.finalizers = {attacher::FinalizerFor(kDriverName)};
    va.metadata.annotations[std::string(attacher::kNodeIdAnnotation)] = kNodeName;
  }
  return va;
}

base::Status StatusOf(const base::Error& error, const std::string& what) {
  return error.Wrap(what);
}

}  // namespace

std::string ObjectName(const std::string& prefix, size_t index) {
  char digits[16];
  std::snprintf(digits, sizeof digits, "%06zu", index);
  return prefix + "-" + digits;
}

base::Status CreateCsiNode(kube::Client& admin) {
  auto created = admin.Create(kube::testobjects::Node(kNodeName, kDriverName, kNodeName));
  if (!created.ok()) return StatusOf(created.error(), "creating CSINode");
  return {};
}

base::Status CreatePv(kube::Client& admin, const std::string& name) {
  auto pv = admin.Create(Pv(name, false));
  if (!pv.ok()) return StatusOf(pv.error(), "creating PV " + name);
  return {};
}

base::Status CreateVa(kube::Client& admin, const std::string& name) {
  auto va = admin.Create(Va(name, false));
  if (!va.ok()) return StatusOf(va.error(), "creating VA " + name);
  return {};
}

base::Status CreatePair(kube::Client& admin, const std::string& name) {
  if (auto status = CreatePv(admin, name); !status.ok()) return status;
  return CreateVa(admin, name);
}

base::Status CreateAttachedPair(kube::Client& admin, const std::string& name) {
  auto pv = admin.Create(Pv(name, true));
  if (!pv.ok()) return StatusOf(pv.error(), "creating PV " + name);
  auto va = admin.Create(Va(name, true));
  if (!va.ok()) return StatusOf(va.error(), "creating VA " + name);
  // The API server drops status on create; the subresource sets it.
  std::string patch =
      R"({"status":{"attached":true,"attachmentMetadata":{"devicePath":"/dev/fault/)" + name +
      R"("}}})";
  auto marked =
      admin.Patch<kube::VolumeAttachment>("", name, kube::PatchType::kMerge, patch, "status");
  if (!marked.ok()) return StatusOf(marked.error(), "marking VA " + name + " attached");
  return {};
}

base::Status DeleteVa(kube::Client& admin, const std::string& name) {
  return admin.Delete<kube::VolumeAttachment>("", name);
}

}  // namespace bench
