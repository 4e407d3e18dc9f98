#include "tests/support/resizer_service_account.h"

#include <fmt/format.h>

#include "tests/support/source_dir.h"

namespace testsupport {

ServiceAccountIdentity ResizerIdentity() {
  return {.rbac_manifest = SourcePath("deploy/kubernetes/csi-resizer/rbac.yaml"),
          .ns = kResizerNamespace,
          .name = kResizerAccount,
          .probe_paths = {"/api/v1/persistentvolumes?limit=1",
                          fmt::format("/apis/coordination.k8s.io/v1/namespaces/{}/leases?limit=1",
                                      kResizerNamespace)}};
}

}  // namespace testsupport
