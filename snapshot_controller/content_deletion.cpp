#include "snapshot_controller/content_deletion.h"

#include <string>
#include <string_view>

#include "base/strconv.h"
#include "kube/client/api_error.h"
#include "snapshot_controller/content_patches.h"

namespace snapshot_controller {
namespace {

// Each content kind's DELETE and the words of its failure.
struct DeleteFailure {
  std::string_view reason;
  std::string_view message;
};

base::Status Delete(ControllerApi& api, const kube::VolumeSnapshotContent& content) {
  return api.DeleteContent(content.metadata.name);
}
base::Status Delete(ControllerApi& api, const kube::VolumeGroupSnapshotContent& content) {
  return api.DeleteGroupContent(content.metadata.name);
}
constexpr DeleteFailure FailureOf(const kube::VolumeSnapshotContent&) {
  return {"SnapshotContentObjectDeleteError", "Failed to delete snapshot content API object"};
}
constexpr DeleteFailure FailureOf(const kube::VolumeGroupSnapshotContent&) {
  return {"GroupSnapshotContentObjectDeleteError",
          "Failed to delete group snapshot content API object"};
}

template <class Content>
base::Result<bool> MarkAndDelete(ControllerApi& api, ControllerEvents& events,
                                 const kube::ObjectReference& owner, const Content& content) {
  if (auto marked = MarkContentBeingDeleted(api, content); !marked.ok()) {
    // Gone meanwhile: nothing left to protect.
    if (kube::IsNotFound(marked.error())) return false;
    return marked.error();
  }
  if (content.spec.deletion_policy != kube::kDeletionPolicyDelete) return false;
  if (!content.metadata.deletion_timestamp.empty()) return true;
  base::Status deleted = Delete(api, content);
  if (deleted.ok()) return true;
  if (kube::IsNotFound(deleted.error())) return false;
  const DeleteFailure failure = FailureOf(content);
  events.Record(owner, kube::kEventTypeWarning, failure.reason, failure.message);
  return base::Error("failed to delete " + std::string(Content::kFacts.kind) + " " +
                     content.metadata.name +
                     " from API server: " + base::GoQuote(deleted.error().message));
}

}  // namespace

base::Result<bool> MarkAndDeleteContent(ControllerApi& api, ControllerEvents& events,
                                        const kube::ObjectReference& snapshot,
                                        const kube::VolumeSnapshotContent& content) {
  return MarkAndDelete(api, events, snapshot, content);
}

base::Result<bool> MarkAndDeleteContent(ControllerApi& api, ControllerEvents& events,
                                        const kube::ObjectReference& group,
                                        const kube::VolumeGroupSnapshotContent& content) {
  return MarkAndDelete(api, events, group, content);
}

}  // namespace snapshot_controller
