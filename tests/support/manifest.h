// ApplyManifest: creates every object of a multi-document YAML manifest (such
// as deploy/kubernetes/csi-attacher/rbac.yaml) through the REST API, like `kubectl create
// -f`: each document becomes JSON and is POSTed to the collection derived from
// its apiVersion, kind and metadata.namespace. An object that already exists
// (409) counts as applied and is left as it is.
//
// There is no discovery: the resource name is the lowercased kind with the
// English plural rule (…s → …ses, …y → …ies, else + s), which holds for the
// kinds such manifests use. Plain YAML scalars are typed as in the YAML core
// schema (null, bool, integer, float, else string); quoted ones stay strings.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/client/client.h"

namespace testsupport {

// `source` names the manifest in errors (e.g. its path).
base::Status ApplyManifest(kube::Client& client, std::string_view yaml, std::string_view source);

}  // namespace testsupport
