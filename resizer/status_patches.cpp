#include "resizer/status_patches.h"

#include <nlohmann/json.hpp>

#include "kube/api/meta_time.h"
#include "resizer/names.h"

namespace resizer {
namespace {

using Json = nlohmann::json;

const std::string kStorage = "storage";

Json Condition(std::string_view type, TimePoint now, std::string_view message = {}) {
  Json condition = {{"type", type},
                    {"status", "True"},
                    {"lastProbeTime", nullptr},
                    {"lastTransitionTime", kube::FormatMetaTime(now)}};
  if (!message.empty()) condition["message"] = message;
  return condition;
}

// The conditions list of a patch: `set` (may be null), and a delete
// directive for each other resize condition the claim has unless `keep_old`.
Json Conditions(const kube::PersistentVolumeClaim& claim, const Json& set, bool keep_old) {
  Json list = Json::array();
  if (!set.is_null()) list.push_back(set);
  if (keep_old) return list;
  for (const kube::PersistentVolumeClaimCondition& c : claim.status.conditions) {
    if (!IsResizeCondition(c.type)) continue;
    if (!set.is_null() && set["type"] == c.type) continue;
    list.push_back({{"type", c.type}, {"$patch", "delete"}});
  }
  return list;
}

Json Metadata(const kube::PersistentVolumeClaim& claim, bool with_rv) {
  Json metadata = Json::object();
  if (with_rv) metadata["resourceVersion"] = claim.metadata.resource_version;
  return metadata;
}

void DropNodeExpansionNotRequired(const kube::PersistentVolumeClaim& claim, Json& metadata) {
  if (claim.metadata.annotations.contains(kNodeExpansionNotRequiredAnnotation)) {
    metadata["annotations"][std::string(kNodeExpansionNotRequiredAnnotation)] = nullptr;
  }
}

}  // namespace

std::string MarkResizingPatch(const kube::PersistentVolumeClaim& claim, const Size& size,
                              bool new_state, TimePoint now) {
  Json metadata = Metadata(claim, /*with_rv=*/true);
  DropNodeExpansionNotRequired(claim, metadata);
  Json status = {{"conditions", Conditions(claim, Condition(kResizingCondition, now), !new_state)},
                 {"allocatedResources", {{kStorage, size.text}}}};
  if (new_state) status["allocatedResourceStatuses"] = {{kStorage, kControllerResizeInProgress}};
  return Json{{"metadata", metadata}, {"status", status}}.dump();
}

std::string MarkControllerErrorPatch(const kube::PersistentVolumeClaim& claim,
                                     const std::string& error, bool infeasible, TimePoint now) {
  Json condition =
      Condition(kControllerResizeErrorCondition, now, "failed to expand pvc with " + error);
  Json status = {{"conditions", Conditions(claim, condition, /*keep_old=*/true)}};
  if (infeasible) status["allocatedResourceStatuses"] = {{kStorage, kControllerResizeInfeasible}};
  return Json{{"status", status}}.dump();
}

std::string MarkNodeExpansionPendingPatch(const kube::PersistentVolumeClaim& claim, TimePoint now) {
  Json metadata = Metadata(claim, /*with_rv=*/true);
  DropNodeExpansionNotRequired(claim, metadata);
  Json condition =
      Condition(kFileSystemResizePendingCondition, now,
                "Waiting for user to (re-)start a pod to finish file system resize of volume on "
                "node.");
  Json status = {{"conditions", Conditions(claim, condition, /*keep_old=*/true)},
                 {"allocatedResourceStatuses", {{kStorage, kNodeResizePending}}}};
  return Json{{"metadata", metadata}, {"status", status}}.dump();
}

std::string MarkExpansionFinishedPatch(const kube::PersistentVolumeClaim& claim,
                                       const std::string& capacity) {
  Json metadata = Metadata(claim, /*with_rv=*/true);
  metadata["annotations"][std::string(kNodeExpansionNotRequiredAnnotation)] = "true";
  Json status = {{"capacity", {{kStorage, capacity}}}};
  // An empty list would be a no-op in a strategic merge patch anyway.
  if (Json dropped = Conditions(claim, nullptr, /*keep_old=*/false); !dropped.empty()) {
    status["conditions"] = std::move(dropped);
  }
  if (!claim.status.allocated_storage_status.empty()) {
    status["allocatedResourceStatuses"] = {{kStorage, nullptr}};
  }
  return Json{{"metadata", metadata}, {"status", status}}.dump();
}

std::string VolumeCapacityPatch(const std::string& capacity, const std::string* old_capacity) {
  Json patch = {{"spec", {{"capacity", {{kStorage, capacity}}}}}};
  if (old_capacity) {
    patch["metadata"]["annotations"][std::string(kPreResizeCapacityAnnotation)] = *old_capacity;
  }
  return patch.dump();
}

std::string DropPreResizeCapacityPatch() {
  Json patch;
  patch["metadata"]["annotations"][std::string(kPreResizeCapacityAnnotation)] = nullptr;
  return patch.dump();
}

}  // namespace resizer
