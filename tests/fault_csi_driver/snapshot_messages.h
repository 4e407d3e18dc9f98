// What the snapshot and group snapshot RPCs share: the registry's answers as
// CSI messages and as call records, and the size a new snapshot gets.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "csi/proto/csi.pb.h"
#include "tests/fault_csi_driver/call_scope.h"
#include "tests/fault_csi_driver/snapshot_registry.h"

namespace faultdriver {

void ToProto(const SnapshotRegistry::Answer& answer, csi::v1::Snapshot* snapshot);
// The fields of a snapshot tests check, for the call record.
nlohmann::json Summary(const csi::v1::Snapshot& snapshot);

// size_bytes of a snapshot of `volume_id`: its capacity from --volumes, else
// --snapshot-size-bytes; nullopt when no call or --volumes named the volume.
std::optional<int64_t> SnapshotSizeBytes(const DriverContext& driver, const std::string& volume_id);

}  // namespace faultdriver
