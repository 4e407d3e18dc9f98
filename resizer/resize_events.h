// ResizeEvents: the Events the resize controller records about a claim
// (docs/resizer.md §6), behind an interface so controller tests read them
// from a fake; RecordedResizeEvents sends them through a kube::EventRecorder
// whose source is "external-resizer <driver>".
#pragma once

#include <string_view>

#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/tools/event_recorder.h"

namespace resizer {

class ResizeEvents {
 public:
  virtual ~ResizeEvents() = default;
  virtual void Normal(const kube::PersistentVolumeClaim& claim, std::string_view reason,
                      std::string_view message) = 0;
  virtual void Warning(const kube::PersistentVolumeClaim& claim, std::string_view reason,
                       std::string_view message) = 0;
};

class RecordedResizeEvents final : public ResizeEvents {
 public:
  explicit RecordedResizeEvents(kube::EventRecorder& recorder) : recorder_(recorder) {}
  void Normal(const kube::PersistentVolumeClaim& claim, std::string_view reason,
              std::string_view message) override {
    recorder_.Record(ReferenceTo(claim), kube::kEventTypeNormal, reason, message);
  }
  void Warning(const kube::PersistentVolumeClaim& claim, std::string_view reason,
               std::string_view message) override {
    recorder_.Record(ReferenceTo(claim), kube::kEventTypeWarning, reason, message);
  }

 private:
  static kube::ObjectReference ReferenceTo(const kube::PersistentVolumeClaim& claim);
  kube::EventRecorder& recorder_;
};

}  // namespace resizer
