#include "kube/api/names.h"

namespace kube {

std::string SanitizeName(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok) c = '-';
  }
  if (!out.empty() && out.back() == '-') out.push_back('X');
  return out;
}

namespace {

bool IsLowerAlphanumeric(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])? without a length limit.
bool IsLabelSyntax(std::string_view name) {
  if (name.empty() || !IsLowerAlphanumeric(name.front()) || !IsLowerAlphanumeric(name.back())) {
    return false;
  }
  for (char c : name) {
    if (!IsLowerAlphanumeric(c) && c != '-') return false;
  }
  return true;
}

}  // namespace

bool IsDns1123Label(std::string_view name) { return name.size() <= 63 && IsLabelSyntax(name); }

bool IsDns1123Subdomain(std::string_view name) {
  if (name.size() > 253) return false;
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    if (!IsLabelSyntax(name.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace kube
