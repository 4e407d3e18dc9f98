#include "snapshotter/group_snapshot_crds.h"

#include <string>

namespace snapshotter {

base::Status CheckGroupSnapshotCrds(kube::Client& client) {
  // Group kinds are not declared yet (group snapshots themselves are a later
  // step), so the two lists are plain requests; only their success matters.
  for (const char* plural : {"volumegroupsnapshotcontents", "volumegroupsnapshotclasses"}) {
    const std::string path =
        std::string("/apis/groupsnapshot.storage.k8s.io/v1/") + plural + "?limit=1";
    if (base::Result<std::string> body = client.Request("GET", path); !body.ok()) {
      return body.error();
    }
  }
  return base::Status::Ok();
}

}  // namespace snapshotter
