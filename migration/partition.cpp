#include "migration/partition.h"

#include <string>

#include "migration/go_text.h"

namespace migration {

base::Result<int32_t> PartitionAttribute(const kube::StringMap& attributes, EmptyPartition empty,
                                         std::string_view failed) {
  auto partition = attributes.find("partition");
  if (partition == attributes.end()) return 0;
  if (partition->second.empty() && empty == EmptyPartition::kZero) return 0;
  auto number = GoAtoiInt32(partition->second);
  if (!number.ok()) {
    return number.error().Wrap(std::string(failed) + " to convert partition " + partition->second +
                               " to integer");
  }
  return *number;
}

}  // namespace migration
