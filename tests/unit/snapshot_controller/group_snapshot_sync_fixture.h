// The fixture of the GroupSnapshotSync tests: GroupHandlerTest's objects in,
// one Sync of the cached group snapshot, calls, Events and metrics out.
#pragma once

#include "snapshot_controller/group_members.h"
#include "snapshot_controller/group_snapshot_sync.h"
#include "tests/unit/snapshot_controller/group_fixture.h"

namespace snapshot_controller::testing {

class GroupSnapshotSyncTest : public GroupHandlerTest {
 protected:
  base::Status Sync(const kube::VolumeGroupSnapshot& group) { return sync_.Sync(Cached(group)); }

  GroupMembers members_{api_, caches_.caches()};
  GroupSnapshotSync sync_{api_, caches_.caches(), events_, metrics_, members_, clock_};
};

}  // namespace snapshot_controller::testing
