#include "migration/split.h"

namespace migration {

std::vector<std::string> Split(std::string_view s, std::string_view separator) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    size_t end = s.find(separator, start);
    if (end == std::string_view::npos) {
      parts.emplace_back(s.substr(start));
      return parts;
    }
    parts.emplace_back(s.substr(start, end - start));
    start = end + separator.size();
  }
}

std::string Join(std::span<const std::string> parts, std::string_view separator) {
  std::string joined;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) joined += separator;
    joined += parts[i];
  }
  return joined;
}

}  // namespace migration
