// The Events the provisioner records about PersistentVolumes
// (docs/provisioner.md §3.10, §4.2), in upstream's reasons and words.
#pragma once

#include <string>

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/tools/event_recorder.h"

namespace provisioner {

class VolumeEvents {
 public:
  virtual ~VolumeEvents() = default;
  // Warning VolumeFailedDelete with the error.
  virtual void DeleteFailed(const kube::PersistentVolume& volume, const std::string& error) = 0;
  // Normal VolumeDelete: deletion waits until the volume is detached.
  virtual void WaitingForDetach(const kube::PersistentVolume& volume, const std::string& node) = 0;
};

class RecordedVolumeEvents final : public VolumeEvents {
 public:
  explicit RecordedVolumeEvents(kube::EventRecorder& recorder) : recorder_(recorder) {}

  void DeleteFailed(const kube::PersistentVolume& volume, const std::string& error) override {
    recorder_.Record(kube::ReferenceTo(volume), kube::kEventTypeWarning, "VolumeFailedDelete",
                     error);
  }
  void WaitingForDetach(const kube::PersistentVolume& volume, const std::string& node) override {
    recorder_.Record(kube::ReferenceTo(volume), kube::kEventTypeNormal, "VolumeDelete",
                     "persistentvolume " + volume.metadata.name + " is still attached to node " +
                         node + ", waiting for detach");
  }

 private:
  kube::EventRecorder& recorder_;
};

}  // namespace provisioner
