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

}  // namespace kube
