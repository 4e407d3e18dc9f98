#include "attacher/names.h"

namespace attacher {

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

std::string FinalizerFor(std::string_view driver) {
  return "external-attacher/" + SanitizeName(driver);
}

std::string LeaseNameFor(std::string_view driver) {
  return SanitizeName("external-attacher-leader-" + std::string(driver));
}

}  // namespace attacher
