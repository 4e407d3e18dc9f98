// The Events the provisioner records about claims (docs/provisioner.md
// §3.10), in upstream's reasons and words, behind an interface so controller
// tests record them; RecordedClaimEvents sends them through the
// controller's EventRecorder, the populator notice through the
// provisioner's (upstream records them under two sources).
#pragma once

#include <string>

#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/tools/event_recorder.h"

namespace provisioner {

class ClaimEvents {
 public:
  virtual ~ClaimEvents() = default;
  // Normal Provisioning, on every attempt.
  virtual void Provisioning(const kube::PersistentVolumeClaim& claim) = 0;
  // Normal Provisioning: a populator fills the claim's data source.
  virtual void LeftToPopulator(const kube::PersistentVolumeClaim& claim) = 0;
  // Warning ProvisioningFailed with the error, or with the infeasible words.
  virtual void Failed(const kube::PersistentVolumeClaim& claim, const std::string& error) = 0;
  virtual void Infeasible(const kube::PersistentVolumeClaim& claim, const std::string& error) = 0;
  // Normal ProvisioningSucceeded.
  virtual void Succeeded(const kube::PersistentVolumeClaim& claim,
                         const std::string& volume_name) = 0;
};

class RecordedClaimEvents final : public ClaimEvents {
 public:
  RecordedClaimEvents(kube::EventRecorder& controller, kube::EventRecorder& provisioner)
      : recorder_(controller), provisioner_recorder_(provisioner) {}

  void Provisioning(const kube::PersistentVolumeClaim& claim) override;
  void LeftToPopulator(const kube::PersistentVolumeClaim& claim) override;
  void Failed(const kube::PersistentVolumeClaim& claim, const std::string& error) override;
  void Infeasible(const kube::PersistentVolumeClaim& claim, const std::string& error) override;
  void Succeeded(const kube::PersistentVolumeClaim& claim, const std::string& volume_name) override;

 private:
  kube::EventRecorder& recorder_;
  kube::EventRecorder& provisioner_recorder_;
};

}  // namespace provisioner
