#include "attacher/names.h"

#include "kube/api/names.h"

namespace attacher {

std::string FinalizerFor(std::string_view driver) {
  return "external-attacher/" + kube::SanitizeName(driver);
}

std::string LeaseNameFor(std::string_view driver) {
  return kube::SanitizeName("external-attacher-leader-" + std::string(driver));
}

}  // namespace attacher
