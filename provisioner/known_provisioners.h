// The provisioner names a csi-provisioner answers to (docs/provisioner.md
// §3.13): its driver's, and - when the driver is a CSI migration target
// (e.g. pd.csi.storage.gke.io) - the in-tree plugin's it replaces
// ("kubernetes.io/gce-pd"), whose classes it provisions after translating
// them to CSI and whose PVs it writes, and later deletes, in in-tree form.
// Immutable; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/storage/v1/storage_class.h"

namespace provisioner {

class KnownProvisioners {
 public:
  explicit KnownProvisioners(std::string driver_name);

  const std::string& driver() const { return driver_; }
  // Whether `name` is the driver's or its in-tree plugin's (upstream's
  // knownProvisioner).
  bool Knows(std::string_view name) const;
  // Whether a class of `provisioner` is the in-tree plugin's, to be
  // translated (§3.13).
  bool IsInTree(std::string_view provisioner) const;
  // `storage_class` as the driver reads it: translated when it is the in-tree
  // plugin's, else as it is. Error: "failed to translate storage class: ...".
  base::Result<kube::StorageClass> ForDriver(const kube::StorageClass& storage_class) const;

 private:
  std::string driver_;
  std::optional<std::string> in_tree_;
};

}  // namespace provisioner
