// The fixture of the group handler tests (GroupSnapshotSync, GroupMembers,
// GroupSnapshotDeletion, GroupContentSync): HandlerTest's objects in, calls,
// Events and metrics out, with the group caches on and the expected calls
// and Events of group snapshot default/group-1.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "snapshot/names.h"
#include "snapshot_controller/names.h"
#include "tests/unit/snapshot_controller/group_objects.h"
#include "tests/unit/snapshot_controller/handler_fixture.h"

namespace snapshot_controller::testing {

// FakeClock's wall time as metav1.Time writes it.
inline constexpr std::string_view kGroupNow = "2023-11-14T22:13:20Z";
inline const std::string kGroupBound(snapshot_controller::kGroupSnapshotBoundFinalizer);
inline const std::string kGroupContentFinalizer(snapshot::kGroupContentFinalizer);

// The group snapshot's status as the controller leaves it, bound to its content.
inline void BoundToContent(kube::VolumeGroupSnapshot& g, bool ready) {
  g.status = kube::VolumeGroupSnapshotStatus{
      .bound_volume_group_snapshot_content_name = kGroupContentName, .ready_to_use = ready};
}

// A status merge patch of default/group-1 guarded by resourceVersion `rv`.
inline ApiCall PatchGroupStatus(const std::string& rv, const nlohmann::json& status) {
  return PatchCall(
      kGroupSnapshots, kGroupKey, "merge",
      nlohmann::json{{"metadata", {{"resourceVersion", rv}}}, {"status", status}}.dump(),
      /*status=*/true);
}
inline ApiCall PatchGroup(const nlohmann::json& ops) {
  return PatchCall(kGroupSnapshots, kGroupKey, "json", ops.dump());
}
// The bound-protection finalizer added to a group snapshot without finalizers.
inline ApiCall AddGroupFinalizer() {
  return PatchGroup({{{"op", "test"}, {"path", "/metadata/finalizers"}, {"value", nullptr}},
                     {{"op", "add"},
                      {"path", "/metadata/finalizers"},
                      {"value", nlohmann::json::array({kGroupBound})}}});
}
inline nlohmann::json GroupErrorStatus(const std::string& message) {
  return {{"message", message}, {"time", kGroupNow}};
}
inline ApiCall ListGroupClaims() { return ListCall(kClaims, "default", "app=db"); }

// Events about default/group-1.
inline RecordedEvent GroupWarning(std::string reason, std::string message) {
  return {"Warning", std::move(reason), std::move(message), "VolumeGroupSnapshot",
          "default", "group-1"};
}
inline RecordedEvent GroupNormal(std::string reason, std::string message) {
  return {"Normal",  std::move(reason), std::move(message), "VolumeGroupSnapshot",
          "default", "group-1"};
}

class GroupHandlerTest : public HandlerTest {
 protected:
  GroupHandlerTest() { caches_.UseGroups(); }

  // The class and the two labelled claims with their volumes.
  void HaveGroupSource() {
    Have(GroupClass());
    for (int n : {1, 2}) {
      Have(GroupClaim(n));
      Have(GroupVolume(n));
    }
  }
  std::optional<kube::VolumeGroupSnapshot> StoredGroup() {
    return api_.Stored<kube::VolumeGroupSnapshot>("default", "group-1");
  }
  std::optional<kube::VolumeGroupSnapshotContent> StoredGroupContent() {
    return api_.Stored<kube::VolumeGroupSnapshotContent>("", kGroupContentName);
  }
  // `group` on the server and in the cache, and the cached copy.
  kube::VolumeGroupSnapshot Cached(const kube::VolumeGroupSnapshot& group) {
    Have(group);
    return *caches_.group_snapshots().Get("default", group.metadata.name);
  }
};

}  // namespace snapshot_controller::testing
