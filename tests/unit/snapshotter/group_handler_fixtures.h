// Objects, the scripted group driver and the table runner's kind
// (sync_case.h) for the CsiGroupContentHandler tests. The defaults describe
// one healthy dynamic group content: "group-content-1" (resourceVersion 10,
// our finalizer, policy Delete, class "group-gold") of driver
// csi.example.com for volumes vol-1..vol-3, bound to VolumeGroupSnapshot
// default/group-1 with UID kGroupUid, and a driver whose group snapshot
// "group-handle-1" is ready with members snap-1..snap-3 (1 GiB each). Each
// case edits what it is about.
#pragma once

#include <deque>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "snapshot/names.h"
#include "snapshotter/csi_group_content_handler.h"
#include "snapshotter/group_snapshot_driver.h"
#include "tests/unit/snapshotter/handler_fixtures.h"

namespace snapshotter::testing {

inline constexpr std::string_view kGroupUid = "9f8e7d6c-5b4a-3210-fedc-ba9876543210";
inline const std::string kGroupSnapshotName = "groupsnapshot-" + std::string(kGroupUid);
inline constexpr std::string_view kGroupHandle = "group-handle-1";
inline const std::vector<std::string> kVolumes = {"vol-1", "vol-2", "vol-3"};
inline const std::vector<std::string> kMemberHandles = {"snap-1", "snap-2", "snap-3"};
// kCreated as metav1.Time writes it.
inline constexpr std::string_view kCreatedTime = "2023-07-22T04:26:40Z";

inline kube::VolumeGroupSnapshotContent GroupContent(
    const Edit<kube::VolumeGroupSnapshotContent>& edit = {}) {
  auto content = ContentOf<kube::VolumeGroupSnapshotContent>("group-content-1",
                                                             snapshot::kGroupContentFinalizer);
  content.spec.volume_group_snapshot_ref = BoundTo("VolumeGroupSnapshot", "group-1", kGroupUid);
  content.spec.volume_group_snapshot_class_name = "group-gold";
  content.spec.source.volume_handles = kVolumes;
  return Edited(std::move(content), edit);
}

// A pre-provisioned group content for an existing group snapshot, unbound.
inline kube::VolumeGroupSnapshotContent ImportedGroupContent(
    const Edit<kube::VolumeGroupSnapshotContent>& edit = {}) {
  kube::VolumeGroupSnapshotContent content = GroupContent([](auto& c) {
    c.spec.source = {.group_snapshot_handles = kube::GroupSnapshotHandles{
                         .volume_group_snapshot_handle = std::string(kGroupHandle),
                         .volume_snapshot_handles = kMemberHandles}};
    c.spec.volume_group_snapshot_class_name.reset();
    c.spec.volume_group_snapshot_ref.uid.clear();
  });
  return Edited(std::move(content), edit);
}

inline void MarkGroupDeleted(kube::VolumeGroupSnapshotContent& c) {
  MarkDeletedWith(c, snapshot::kGroupBeingDeletedAnnotation);
}

inline kube::VolumeGroupSnapshotClass GroupClass(
    const Edit<kube::VolumeGroupSnapshotClass>& edit = {}) {
  kube::VolumeGroupSnapshotClass group_class;
  group_class.metadata.name = "group-gold";
  group_class.driver = std::string(kDriver);
  group_class.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  return Edited(std::move(group_class), edit);
}

// Member `i` (0-based) as the driver reports it and the status records it.
inline kube::VolumeSnapshotInfo Member(size_t i, bool ready = true) {
  return {.volume_handle = kVolumes[i],
          .snapshot_handle = kMemberHandles[i],
          .creation_time = kCreated,
          .ready_to_use = ready,
          .restore_size = kGiB};
}

inline DriverGroupSnapshot Group(const Edit<DriverGroupSnapshot>& edit = {}) {
  DriverGroupSnapshot group{.group_snapshot_id = std::string(kGroupHandle),
                            .creation_time = kCreated,
                            .ready_to_use = true,
                            .members = {Member(0), Member(1), Member(2)}};
  return Edited(std::move(group), edit);
}

// The CreateVolumeGroupSnapshot of the default content.
inline CreateGroupSnapshotRequest CreateGroup(const Edit<CreateGroupSnapshotRequest>& edit = {}) {
  CreateGroupSnapshotRequest request{.name = kGroupSnapshotName, .source_volume_ids = kVolumes};
  return Edited(std::move(request), edit);
}

// --- The scripted group driver ----------------------------------------------

inline std::string CreateGroupCall(const CreateGroupSnapshotRequest& r) {
  return nlohmann::json{{"method", "CreateVolumeGroupSnapshot"},
                        {"name", r.name},
                        {"source_volume_ids", r.source_volume_ids},
                        {"parameters", r.parameters},
                        {"secrets", r.secrets}}
      .dump();
}
// GetVolumeGroupSnapshot or DeleteVolumeGroupSnapshot.
inline std::string GroupCall(std::string method, const std::string& group_snapshot_id,
                             const std::vector<std::string>& snapshot_ids,
                             const Secrets& secrets = {}) {
  return nlohmann::json{{"method", std::move(method)},
                        {"group_snapshot_id", group_snapshot_id},
                        {"snapshot_ids", snapshot_ids},
                        {"secrets", secrets}}
      .dump();
}
inline std::string GetGroupCall(const Secrets& secrets = {}) {
  return GroupCall("GetVolumeGroupSnapshot", std::string(kGroupHandle), kMemberHandles, secrets);
}
inline std::string DeleteGroupCall(const Secrets& secrets = {}) {
  return GroupCall("DeleteVolumeGroupSnapshot", std::string(kGroupHandle), kMemberHandles, secrets);
}

struct GroupDriverScript {
  std::deque<base::Result<DriverGroupSnapshot>> create = {};
  std::deque<base::Result<DriverGroupSnapshot>> get = {};
  std::deque<base::Status> remove = {};
};

class FakeGroupSnapshotDriver final : public GroupSnapshotDriver,
                                      public ScriptedDriver<GroupDriverScript> {
 public:
  explicit FakeGroupSnapshotDriver(GroupDriverScript script = {})
      : ScriptedDriver(std::move(script)) {}

  base::Result<DriverGroupSnapshot> CreateGroupSnapshot(
      const CreateGroupSnapshotRequest& request) override {
    return Answer(CreateGroupCall(request), &GroupDriverScript::create);
  }
  base::Result<DriverGroupSnapshot> GetGroupSnapshot(const std::string& group_snapshot_id,
                                                     const std::vector<std::string>& snapshot_ids,
                                                     const Secrets& secrets) override {
    return Answer(GroupCall("GetVolumeGroupSnapshot", group_snapshot_id, snapshot_ids, secrets),
                  &GroupDriverScript::get);
  }
  base::Status DeleteGroupSnapshot(const std::string& group_snapshot_id,
                                   const std::vector<std::string>& snapshot_ids,
                                   const Secrets& secrets) override {
    return Answer(GroupCall("DeleteVolumeGroupSnapshot", group_snapshot_id, snapshot_ids, secrets),
                  &GroupDriverScript::remove);
  }
};

// --- API call bodies ----------------------------------------------------------

inline ApiCall PatchGroupContent(std::string body) {
  return {"patch", "volumegroupsnapshotcontents", "group-content-1", "", "json", std::move(body)};
}
inline ApiCall WriteGroupStatus(const std::string& rv, const nlohmann::json& status) {
  return {"patch", "volumegroupsnapshotcontents", "group-content-1", "status",
          "merge", StatusBody(rv, status)};
}
inline const ApiCall kAddGroupBeingCreated =
    PatchGroupContent(AddFirstAnnotationBody(snapshot::kGroupBeingCreatedAnnotation));
inline const ApiCall kAppendGroupBeingCreated =
    PatchGroupContent(AppendAnnotationBody(snapshot::kGroupBeingCreatedAnnotation));
inline const ApiCall kRemoveGroupBeingCreated =
    PatchGroupContent(RemoveAnnotationBody(snapshot::kGroupBeingCreatedAnnotation));
inline ApiCall RemoveGroupFinalizer(int index = 0) {
  return PatchGroupContent(RemoveFinalizerBody(snapshot::kGroupContentFinalizer, index));
}

inline nlohmann::json MemberBody(size_t i, bool ready = true) {
  return {{"volumeHandle", kVolumes[i]},
          {"snapshotHandle", kMemberHandles[i]},
          {"creationTime", kCreated},
          {"readyToUse", ready},
          {"restoreSize", kGiB}};
}
// The status a group gets on a content without status; members as `ready`.
inline nlohmann::json GroupStatusBody(bool ready = true) {
  return {{"volumeGroupSnapshotHandle", kGroupHandle},
          {"creationTime", kCreatedTime},
          {"readyToUse", ready},
          {"volumeSnapshotInfoList",
           {MemberBody(0, ready), MemberBody(1, ready), MemberBody(2, ready)}}};
}
// The message a failing CreateVolumeGroupSnapshot leaves for `error`.
inline std::string TakeGroupFailed(const base::Error& error) {
  return "failed to take group snapshot of the volumes [vol-1 vol-2 vol-3]: \"" + error.message +
         "\"";
}

// --- The table runner's kind ----------------------------------------------------

struct GroupTestKind {
  using Content = kube::VolumeGroupSnapshotContent;
  using Class = kube::VolumeGroupSnapshotClass;
  using Options = CsiGroupContentHandlerOptions;
  using Driver = FakeGroupSnapshotDriver;
  static inline const Class kDefaultClass = GroupClass();
  static CsiGroupContentHandler MakeHandler(const kube::Store<Class>& classes, SnapshotApi& api,
                                            Driver& driver, GroupContentEvents& events,
                                            Options options, base::Clock& clock) {
    return CsiGroupContentHandler(classes, api, driver, events, std::move(options), clock);
  }
};

using GroupSyncCase = SyncCaseOf<GroupTestKind>;
static_assert(WarmedUp<GroupSyncCase>());

}  // namespace snapshotter::testing
