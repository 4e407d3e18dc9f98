#include "tests/fault_csi_driver/snapshot_messages.h"

namespace faultdriver {

void ToProto(const SnapshotRegistry::Answer& answer, csi::v1::Snapshot* snapshot) {
  snapshot->set_snapshot_id(answer.snapshot_id);
  snapshot->set_source_volume_id(answer.source_volume_id);
  snapshot->set_size_bytes(answer.size_bytes);
  *snapshot->mutable_creation_time() = answer.creation_time;
  snapshot->set_ready_to_use(answer.ready_to_use);
  snapshot->set_group_snapshot_id(answer.group_snapshot_id);
}

nlohmann::json Summary(const csi::v1::Snapshot& snapshot) {
  return {{"snapshot_id", snapshot.snapshot_id()},
          {"source_volume_id", snapshot.source_volume_id()},
          {"size_bytes", snapshot.size_bytes()},
          {"ready_to_use", snapshot.ready_to_use()},
          {"group_snapshot_id", snapshot.group_snapshot_id()}};
}

std::optional<int64_t> SnapshotSizeBytes(const DriverContext& driver,
                                         const std::string& volume_id) {
  std::optional<int64_t> capacity = driver.registry->CapacityBytes(volume_id);
  if (!capacity) return std::nullopt;
  return *capacity != 0 ? *capacity : driver.options->snapshot_size_bytes;
}

}  // namespace faultdriver
