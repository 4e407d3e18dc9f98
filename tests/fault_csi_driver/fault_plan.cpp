#include "tests/fault_csi_driver/fault_plan.h"

#include <array>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "base/duration.h"
#include "tests/fault_csi_driver/status_codes.h"

namespace faultdriver {
namespace {

// Rejecting unknown names catches typos that would otherwise silently
// inject nothing and make a test pass for the wrong reason.
constexpr std::array<std::string_view, 20> kMethods = {"GetPluginInfo",
                                                       "GetPluginCapabilities",
                                                       "Probe",
                                                       "CreateVolume",
                                                       "DeleteVolume",
                                                       "ControllerPublishVolume",
                                                       "ControllerUnpublishVolume",
                                                       "ListVolumes",
                                                       "ControllerGetCapabilities",
                                                       "CreateSnapshot",
                                                       "DeleteSnapshot",
                                                       "ListSnapshots",
                                                       "GroupControllerGetCapabilities",
                                                       "CreateVolumeGroupSnapshot",
                                                       "GetVolumeGroupSnapshot",
                                                       "DeleteVolumeGroupSnapshot",
                                                       "GetCapacity",
                                                       "ControllerExpandVolume",
                                                       "ControllerModifyVolume",
                                                       "NodeGetInfo"};

bool KnownMethod(std::string_view name) {
  for (std::string_view method : kMethods) {
    if (method == name) return true;
  }
  return false;
}

bool IsSnapshotCreateMethod(std::string_view name) {
  return name == "CreateSnapshot" || name == "CreateVolumeGroupSnapshot";
}

// The calls about one snapshot or group snapshot, which snapshot_name filters.
bool IsSnapshotMethod(std::string_view name) {
  return IsSnapshotCreateMethod(name) || name == "DeleteSnapshot" || name == "ListSnapshots" ||
         name == "GetVolumeGroupSnapshot" || name == "DeleteVolumeGroupSnapshot";
}

// The calls about one volume by its name, which volume_name filters.
bool IsVolumeLifecycleMethod(std::string_view name) {
  return name == "CreateVolume" || name == "DeleteVolume";
}

int64_t IntegerField(const nlohmann::json& value, int64_t minimum, const std::string& where) {
  if (!value.is_number_integer() || value.get<int64_t>() < minimum) {
    throw std::invalid_argument(where + ": want an integer >= " + std::to_string(minimum));
  }
  return value.get<int64_t>();
}

std::string StringField(const nlohmann::json& value, const std::string& where) {
  if (!value.is_string()) throw std::invalid_argument(where + ": want a string");
  return value.get<std::string>();
}

bool BoolField(const nlohmann::json& value, const std::string& where) {
  if (!value.is_boolean()) throw std::invalid_argument(where + ": want a boolean");
  return value.get<bool>();
}

// Combinations that would silently do something else than the author meant.
void CheckRule(const FaultRule& rule, const std::string& where) {
  if (rule.hang && rule.Fails()) {
    throw std::invalid_argument(where +
                                ": hang ends with the caller's own deadline; leave out code");
  }
  if (rule.never_ready && rule.ready_after) {
    throw std::invalid_argument(where + ": never_ready and ready_after exclude each other");
  }
}

FaultRule ParseRule(const std::string& method, const nlohmann::json& object,
                    const std::string& where) {
  if (!object.is_object()) throw std::invalid_argument(where + ": want an object");
  FaultRule rule;
  for (const auto& [key, value] : object.items()) {
    const std::string field = where + "." + key;
    if (key == "volume_id") {
      rule.volume_id = StringField(value, field);
    } else if (key == "node_id") {
      rule.node_id = StringField(value, field);
    } else if (key == "snapshot_name" && IsSnapshotMethod(method)) {
      rule.snapshot_name = StringField(value, field);
    } else if (key == "volume_name" && IsVolumeLifecycleMethod(method)) {
      rule.volume_name = StringField(value, field);
    } else if (key == "code") {
      std::optional<grpc::StatusCode> code = ParseStatusCode(StringField(value, field));
      if (!code) throw std::invalid_argument(field + ": unknown gRPC code " + value.dump());
      rule.code = *code;
    } else if (key == "message") {
      rule.message = StringField(value, field);
    } else if (key == "delay") {
      auto delay = base::ParseDuration(StringField(value, field));
      if (!delay.ok()) throw std::invalid_argument(field + ": " + delay.error().message);
      rule.delay = *delay;
    } else if (key == "times") {
      rule.times = IntegerField(value, -1, field);
    } else if (key == "after_success") {
      rule.after_success = BoolField(value, field);
    } else if (key == "hang") {
      rule.hang = BoolField(value, field);
    } else if (key == "ready" && method == "Probe") {
      rule.ready = BoolField(value, field);
    } else if (key == "ready_after" && IsSnapshotCreateMethod(method)) {
      rule.ready_after = IntegerField(value, 1, field);
    } else if (key == "never_ready" && IsSnapshotCreateMethod(method)) {
      rule.never_ready = BoolField(value, field);
    } else if (key == "capacity_bytes" && method == "CreateVolume") {
      rule.capacity_bytes = IntegerField(value, 0, field);
    } else if (key == "node_expansion_required" && method == "ControllerExpandVolume") {
      rule.node_expansion_required = BoolField(value, field);
    } else if (key == "capacity_bytes" && method == "ControllerExpandVolume") {
      rule.capacity_bytes = IntegerField(value, 0, field);
    } else if (key == "segment" && method == "GetCapacity") {
      rule.segment = StringField(value, field);
    } else if (key == "available_bytes" && method == "GetCapacity") {
      rule.available_bytes = IntegerField(value, 0, field);
    } else if (key == "maximum_volume_size" && method == "GetCapacity") {
      rule.maximum_volume_size = IntegerField(value, 0, field);
    } else {
      throw std::invalid_argument(field + ": unknown field");
    }
  }
  CheckRule(rule, where);
  return rule;
}

}  // namespace

base::Result<FaultPlan> FaultPlan::Parse(std::string_view json) {
  // nlohmann reports through exceptions; they stay inside this function.
  try {
    nlohmann::json document = nlohmann::json::parse(json);
    if (!document.is_object()) return base::Error("faults.json: want a JSON object");
    FaultPlan plan;
    for (const auto& [key, value] : document.items()) {
      if (key == "detach_behind_back") {
        if (!value.is_array()) return base::Error("detach_behind_back: want an array");
        for (const nlohmann::json& volume : value) {
          plan.detach_behind_back_.push_back(StringField(volume, "detach_behind_back[]"));
        }
        continue;
      }
      if (!KnownMethod(key)) return base::Error("unknown method " + nlohmann::json(key).dump());
      if (!value.is_array()) return base::Error(key + ": want an array of rules");
      std::vector<FaultRule>& rules = plan.rules_[key];
      for (size_t i = 0; i < value.size(); ++i) {
        rules.push_back(ParseRule(key, value[i], key + "[" + std::to_string(i) + "]"));
      }
    }
    return plan;
  } catch (const std::exception& e) {
    return base::Error(e.what());
  }
}

std::optional<FaultRule> FaultPlan::Take(std::string_view method, const CallTarget& target) {
  auto it = rules_.find(method);
  if (it == rules_.end()) return std::nullopt;
  for (FaultRule& rule : it->second) {
    if (rule.times == 0) continue;
    if (rule.volume_id && *rule.volume_id != target.volume_id) continue;
    if (rule.node_id && *rule.node_id != target.node_id) continue;
    if (rule.snapshot_name && *rule.snapshot_name != target.snapshot_name) continue;
    if (rule.volume_name && *rule.volume_name != target.volume_name) continue;
    if (rule.segment && *rule.segment != target.segment) continue;
    if (rule.times > 0) --rule.times;
    return rule;
  }
  return std::nullopt;
}

}  // namespace faultdriver
