// Installing CustomResourceDefinitions on a test control plane, as
// `kubectl create -f <dir>/*.yaml` followed by `kubectl wait
// --for=condition=Established` would: ApplyCustomResourceDefinitions creates
// every document of every *.yaml file in `dir` (sorted by name; an existing
// CRD counts as created) and returns the CRDs' names (<plural>.<group>);
// CheckEstablished tells whether one of them is served yet. A file that is no
// CustomResourceDefinition is an error naming it, and nothing after it is
// created.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "kube/client/client.h"

namespace testsupport {

base::Result<std::vector<std::string>> ApplyCustomResourceDefinitions(kube::Client& client,
                                                                      const std::string& dir);

// OK once status.conditions has Established=True; else an error saying what
// the CRD's conditions are.
base::Status CheckEstablished(kube::Client& client, const std::string& crd_name);

}  // namespace testsupport
