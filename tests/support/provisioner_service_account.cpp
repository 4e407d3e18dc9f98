#include "tests/support/provisioner_service_account.h"

#include <fmt/format.h>

#include "tests/support/source_dir.h"

namespace testsupport {

ServiceAccountIdentity ProvisionerIdentity() {
  return {.rbac_manifest = SourcePath("deploy/kubernetes/csi-provisioner/rbac.yaml"),
          .ns = kProvisionerNamespace,
          .name = kProvisionerAccount,
          .probe_paths = {"/api/v1/persistentvolumes?limit=1",
                          fmt::format("/apis/coordination.k8s.io/v1/namespaces/{}/leases?limit=1",
                                      kProvisionerNamespace)}};
}

}  // namespace testsupport
