// In-tree -> CSI translation of StorageClasses, for a provisioner that
// provisions for a migrated in-tree plugin (docs/provisioner.md §3.13; the
// part of k8s.io/csi-translation-lib's TranslateInTreeStorageClassToCSI it
// uses). A pure function of its arguments.
#pragma once

#include <string_view>

#include "base/result.h"
#include "kube/api/storage/v1/storage_class.h"

namespace migration {

// `storage_class` as the CSI driver that replaces in-tree plugin
// `in_tree_plugin` (e.g. "kubernetes.io/gce-pd") reads it: parameters
// renamed or dropped per plugin (e.g. fsType -> csi.storage.k8s.io/fstype),
// zone/zones turned into allowedTopologies under the driver's topology key,
// Kubernetes zone keys of allowedTopologies renamed to it. Every other field
// is kept (the provisioner stays the in-tree name, except for Portworx,
// whose translator names the driver).
// Per plugin: docs/migration.md §8.1.
// Errors: the translator's own ("cannot simultaneously set allowed
// topologies and zone/zones parameters"), or `could not find in-tree storage
// class parameter translation logic for "<plugin>"` (Go-quoted) for a plugin
// that does not migrate.
base::Result<kube::StorageClass> TranslateInTreeStorageClassToCsi(
    std::string_view in_tree_plugin, const kube::StorageClass& storage_class);

}  // namespace migration
