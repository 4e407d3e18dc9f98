#include "migration/portworx.h"

#include <string>

#include "migration/drivers.h"

namespace migration {

kube::CSIPersistentVolumeSource TranslatePortworx(const kube::PortworxVolumeSource& source,
                                                  const kube::PersistentVolume& pv) {
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kPortworxDriver);
  csi.volume_handle = source.volume_id;
  csi.fs_type = source.fs_type;
  const kube::StringMap& annotations = pv.metadata.annotations;
  auto name = annotations.find("openstorage.io/auth-secret-name");
  auto namespace_ = annotations.find("openstorage.io/auth-secret-namespace");
  if (name != annotations.end() && namespace_ != annotations.end()) {
    csi.controller_publish_secret_ref = kube::SecretReference{name->second, namespace_->second};
  }
  return csi;
}

}  // namespace migration
