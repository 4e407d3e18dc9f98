// CSI -> in-tree translation of PersistentVolumes, for a provisioner that
// provisions for a migrated in-tree plugin (docs/provisioner.md §3.13): the
// PV it made in CSI form is written in the in-tree form the in-tree plugin
// would have written, so a cluster can roll migration back (the part of
// k8s.io/csi-translation-lib's TranslateCSIPVToInTree it uses). A pure
// function of its argument.
#pragma once

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

// A copy of `pv` whose CSI source (of one of the seven migration target
// drivers, chosen by spec.csi.driver) is replaced by the in-tree source;
// the driver's topology keys in node affinity become the Kubernetes zone
// (and, where the plugin knows how, region) keys, with the matching PV
// labels. Every other field is kept. Per driver: docs/migration.md §8.2.
// Errors: the translator's own (an unparsable handle or partition, a
// topology whose region cannot be told), "CSI persistent volume was nil"
// without a CSI source, or `could not find in-tree plugin translation logic
// for <driver>` for another driver.
base::Result<kube::PersistentVolume> TranslateCsiPvToInTree(const kube::PersistentVolume& pv);

}  // namespace migration
