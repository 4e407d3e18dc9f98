#include "resizer/modify_patches.h"

#include <nlohmann/json.hpp>

#include "base/strconv.h"
#include "kube/api/meta_time.h"
#include "resizer/names.h"

namespace resizer {
namespace {

using Json = nlohmann::json;

// `type` True with `message` (and `reason`), its transition time carried
// over from the claim's condition of that type when status and reason stay.
Json Condition(const kube::PersistentVolumeClaim& claim, std::string_view type,
               std::string_view reason, std::string_view message, const std::string& now) {
  Json condition = {{"type", type},
                    {"status", "True"},
                    {"lastProbeTime", now},
                    {"lastTransitionTime", now},
                    {"message", message}};
  if (!reason.empty()) condition["reason"] = reason;
  const kube::PersistentVolumeClaimCondition* old = claim.FindCondition(type);
  if (old && old->status == "True" && old->reason == reason && !old->last_transition_time.empty()) {
    condition["lastTransitionTime"] = old->last_transition_time;
  }
  return condition;
}

Json Deleted(std::string_view type) { return {{"type", type}, {"$patch", "delete"}}; }

}  // namespace

std::string MarkModifyStatusPatch(const kube::PersistentVolumeClaim& claim, std::string_view status,
                                  const ModifyFailure* failure,
                                  std::chrono::system_clock::time_point now) {
  Json modify = {{"status", status}};
  Json patch = {{"metadata", {{"resourceVersion", claim.metadata.resource_version}}}};
  if (status != kModifyPending) {
    const std::string time = kube::FormatMetaTime(now);
    Json conditions = Json::array();
    if (!failure) {
      const std::string target = claim.spec.volume_attributes_class_name.value_or("");
      modify["targetVolumeAttributesClassName"] = target;
      conditions.push_back(
          Condition(claim, kModifyingVolumeCondition, "",
                    "Modifying volume to " + base::GoQuote(target) + " is in progress.", time));
    } else {
      const std::string target =
          claim.status.modify_volume_status
              ? claim.status.modify_volume_status->target_volume_attributes_class_name
              : std::string();
      conditions.push_back(
          Condition(claim, kModifyingVolumeCondition, "",
                    "Modifying volume to " + base::GoQuote(target) +
                        (failure->final ? " failed. Waiting for retry." : " is still in progress."),
                    time));
      conditions.push_back(Condition(claim, kModifyVolumeErrorCondition, failure->code_name,
                                     failure->message, time));
    }
    patch["status"]["conditions"] = std::move(conditions);
  }
  patch["status"]["modifyVolumeStatus"] = std::move(modify);
  return patch.dump();
}

std::string MarkModifyFinishedPatch(const kube::PersistentVolumeClaim& claim,
                                    const std::string& target) {
  Json status = {{"modifyVolumeStatus", nullptr}, {"currentVolumeAttributesClassName", target}};
  Json dropped = Json::array();
  for (std::string_view type : {kModifyingVolumeCondition, kModifyVolumeErrorCondition}) {
    if (claim.FindCondition(type)) dropped.push_back(Deleted(type));
  }
  if (!dropped.empty()) status["conditions"] = std::move(dropped);
  return Json{{"status", std::move(status)}}.dump();
}

std::string DropModifyingConditionPatch() {
  return Json{{"status", {{"conditions", Json::array({Deleted(kModifyingVolumeCondition)})}}}}
      .dump();
}

std::string VolumeClassPatch(const std::string& target) {
  return Json{{"spec", {{"volumeAttributesClassName", target}}}}.dump();
}

}  // namespace resizer
