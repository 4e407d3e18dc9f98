#include "base/flag_maps.h"

#include <algorithm>
#include <vector>

#include "base/ascii.h"
#include "base/strconv.h"

namespace base {
namespace {

std::vector<std::string_view> Split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t end = s.find(separator, start);
    parts.push_back(s.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

}  // namespace

Status MapStringBoolValue::Set(std::string_view text) {
  if (!initialized_) {
    target_->clear();
    initialized_ = true;
  }
  for (std::string_view item : Split(text, ',')) {
    item = base::TrimSpace(item);
    if (item.empty()) continue;
    size_t eq = item.find('=');
    if (eq == std::string_view::npos) return Error("malformed pair, expect string=bool");
    std::string_view key = base::TrimSpace(item.substr(0, eq));
    std::string_view value = base::TrimSpace(item.substr(eq + 1));
    Result<bool> parsed = ParseBool(value);
    if (!parsed.ok()) {
      return Error("invalid value of " + std::string(key) + ": " + std::string(value) +
                   ", err: " + parsed.error().message);
    }
    (*target_)[std::string(key)] = *parsed;
  }
  return Status::Ok();
}

std::string MapStringBoolValue::String() const {
  // Go sorts the rendered pairs, not the keys ("a.b=x" before "a=x").
  std::vector<std::string> pairs;
  for (const auto& [key, value] : *target_) pairs.push_back(key + (value ? "=true" : "=false"));
  std::sort(pairs.begin(), pairs.end());
  std::string out;
  for (const std::string& pair : pairs) out += (out.empty() ? "" : ",") + pair;
  return out;
}

Status ColonMapValue::Set(std::string_view text) {
  for (std::string_view item : Split(text, ',')) {
    std::vector<std::string_view> parts = Split(item, ':');
    if (parts.size() != 2) {
      return Error("malformed item in list of labels: " + std::string(item));
    }
    (*target_)[std::string(parts[0])] = std::string(parts[1]);
  }
  return Status::Ok();
}

std::string ColonMapValue::String() const {
  std::string out = "map[";
  for (const auto& [key, value] : *target_) {
    if (out.size() > 4) out += " ";
    out += key + ":" + value;
  }
  return out + "]";
}

}  // namespace base
