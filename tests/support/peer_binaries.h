// Where the test peers are. Each path comes from, in order: the caller; the
// environment (the variable named below); or `tools/peers/build.sh <peer>...`,
// which prints NAME=PATH lines (seconds when its cache is warm, tens of
// minutes when cold; its output goes to `build_log`). A path that is missing
// (a binary: not executable) is an error naming it and where it came from.
//
//   ETCD_BIN, KUBE_APISERVER_BIN          (build.sh etcd kube)
//   KUBECTL_BIN                           (build.sh kubectl)
//   KUBE_CONTROLLER_MANAGER_BIN           (build.sh controller-manager)
//   KUBE_SCHEDULER_BIN                    (build.sh scheduler)
//   CSI_MOCK_BIN                          (build.sh csi-mock)
//   UPSTREAM_ATTACHER_BIN                 (build.sh upstream)
//   UPSTREAM_SNAPSHOTTER_BIN,
//   UPSTREAM_SNAPSHOT_CONTROLLER_BIN      (build.sh snapshot)
//   UPSTREAM_PROVISIONER_BIN              (build.sh provisioner)
//   SNAPSHOT_CRDS_DIR                     (build.sh crds; a directory)
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace testsupport {

struct PeerBinaries {
  std::string etcd;
  std::string apiserver;
};

base::Result<PeerBinaries> FindPeerBinaries(PeerBinaries given, const std::string& build_log);

// One peer's path: $`variable`, else the `variable`= line of
// `tools/peers/build.sh <peer>`. Binaries must be executable; a name ending
// in _DIR must be a directory.
base::Result<std::string> FindPeer(std::string_view variable, std::string_view peer,
                                   const std::string& build_log);

}  // namespace testsupport
