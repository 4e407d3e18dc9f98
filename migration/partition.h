// The partition number a CSI source of GCE PD or EBS carries in its
// volumeAttributes, read back for the in-tree source (docs/migration.md §8.2).
#pragma once

#include <cstdint>
#include <string_view>

#include "base/result.h"
#include "kube/api/string_map.h"

namespace migration {

// Whether an empty "partition" means 0 (GCE PD) or fails to parse (EBS).
enum class EmptyPartition { kZero, kInvalid };

// volumeAttributes["partition"] as strconv.Atoi reads it, narrowed to int32;
// absent is 0. Error: "<failed> to convert partition <p> to integer: <Atoi
// error>", `failed` being the first word as the plugin spells it.
base::Result<int32_t> PartitionAttribute(const kube::StringMap& attributes, EmptyPartition empty,
                                         std::string_view failed);

}  // namespace migration
