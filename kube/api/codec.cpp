#include "kube/api/codec.h"

namespace kube {

void to_json(nlohmann::json& j, const StringMap& map) { codec_internal::EncodeValue(j, map); }

namespace codec_internal {

namespace {

// nlohmann prefixes its messages with "[json.exception.<kind>.<id>] ".
std::string WithoutNlohmannTag(std::string_view message) {
  if (message.starts_with("[json.exception.")) {
    if (auto end = message.find("] "); end != std::string_view::npos) {
      message.remove_prefix(end + 2);
    }
  }
  return std::string(message);
}

}  // namespace

base::Error DescribeFailure(const std::exception& e) {
  return base::Error(WithoutNlohmannTag(e.what()));
}

}  // namespace codec_internal

}  // namespace kube
