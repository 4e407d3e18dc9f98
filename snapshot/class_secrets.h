// The Secrets a snapshot class's parameters name (docs/snapshots.md §3.5,
// §4.3 createSnapshotContent, §4.7): the class parameter templates of
// csi_params/secret_templates.h with the snapshot kinds' tokens. The
// controller resolves the Secret of a new content's create and delete calls
// this way, the sidecar those of its list and get calls.
#pragma once

#include <optional>
#include <string_view>

#include "base/result.h"
#include "csi_params/secret_templates.h"
#include "kube/api/core/v1/volume_sources.h"
#include "kube/api/object_meta.h"
#include "kube/api/string_map.h"

namespace snapshot {

// A pair of class parameters (snapshot/names.h) and the kind its tokens
// name: "volumesnapshot" gives ${volumesnapshotcontent.name},
// ${volumesnapshot.namespace} and ${volumesnapshot.name};
// "volumegroupsnapshot" the group kinds' tokens.
struct ClassSecretKeys {
  csi_params::SecretParameterKeys keys;
  std::string_view object = "volumesnapshot";
};

// The Secret named by the templates under `keys`, or nullopt when the class
// has neither parameter. The namespace may use the content's name and the
// (group) snapshot's namespace, the name also the snapshot's name; without a
// snapshot (nullptr) only the content's name is known.
base::Result<std::optional<kube::SecretReference>> ClassSecretOf(const ClassSecretKeys& keys,
                                                                 const kube::StringMap& parameters,
                                                                 std::string_view content_name,
                                                                 const kube::ObjectMeta* snapshot);

}  // namespace snapshot
