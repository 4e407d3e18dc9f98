#include "provisioner/claim_events.h"

#include "base/strconv.h"
#include "kube/api/core/v1/event.h"

namespace provisioner {

void RecordedClaimEvents::Provisioning(const kube::PersistentVolumeClaim& claim) {
  recorder_.Record(kube::ReferenceTo(claim), kube::kEventTypeNormal, "Provisioning",
                   "External provisioner is provisioning volume for claim " +
                       base::GoQuote(claim.metadata.namespace_ + "/" + claim.metadata.name));
}

void RecordedClaimEvents::LeftToPopulator(const kube::PersistentVolumeClaim& claim) {
  provisioner_recorder_.Record(kube::ReferenceTo(claim), kube::kEventTypeNormal, "Provisioning",
                               "Assuming an external populator will provision the volume");
}

void RecordedClaimEvents::Failed(const kube::PersistentVolumeClaim& claim,
                                 const std::string& error) {
  recorder_.Record(kube::ReferenceTo(claim), kube::kEventTypeWarning, "ProvisioningFailed", error);
}

void RecordedClaimEvents::Infeasible(const kube::PersistentVolumeClaim& claim,
                                     const std::string& error) {
  recorder_.Record(
      kube::ReferenceTo(claim), kube::kEventTypeWarning, "ProvisioningFailed",
      "Volume provisioning failed with infeasible error. Retries will be delayed. " + error);
}

void RecordedClaimEvents::Succeeded(const kube::PersistentVolumeClaim& claim,
                                    const std::string& volume_name) {
  recorder_.Record(kube::ReferenceTo(claim), kube::kEventTypeNormal, "ProvisioningSucceeded",
                   "Successfully provisioned volume " + volume_name);
}

}  // namespace provisioner
