// FindPeerBinaries: where the etcd and kube-apiserver binaries are. Each path
// comes from, in order: the caller; the environment (ETCD_BIN,
// KUBE_APISERVER_BIN); or `tools/peers/build.sh etcd kube`, which prints
// NAME=PATH lines (seconds when its cache is warm, tens of minutes when cold;
// its output goes to `build_log`). A binary that is missing or not executable
// is an error naming it and where its path came from.
#pragma once

#include <string>

#include "base/result.h"

namespace testsupport {

struct PeerBinaries {
  std::string etcd;
  std::string apiserver;
};

base::Result<PeerBinaries> FindPeerBinaries(PeerBinaries given, const std::string& build_log);

}  // namespace testsupport
