// ControllerEvents: where the snapshot-controller's handler reports what
// `kubectl describe` shows (docs/snapshots.md §4.3-§4.5): Normal and Warning
// Events on VolumeSnapshots and contents, source "snapshot-controller". The
// handler only calls it; the interface keeps its unit tests on an in-memory
// fake. RecordedControllerEvents sends them through a kube::EventRecorder,
// which never blocks and aggregates repeats.
#pragma once

#include <string_view>

#include "kube/api/core/v1/event.h"
#include "kube/tools/event_recorder.h"

namespace snapshot_controller {

class ControllerEvents {
 public:
  virtual ~ControllerEvents() = default;
  // `type` is kube::kEventTypeNormal or kube::kEventTypeWarning.
  virtual void Record(const kube::ObjectReference& object, std::string_view type,
                      std::string_view reason, std::string_view message) = 0;
};

class RecordedControllerEvents final : public ControllerEvents {
 public:
  explicit RecordedControllerEvents(kube::EventRecorder& recorder) : recorder_(recorder) {}
  void Record(const kube::ObjectReference& object, std::string_view type, std::string_view reason,
              std::string_view message) override {
    recorder_.Record(object, type, reason, message);
  }

 private:
  kube::EventRecorder& recorder_;
};

}  // namespace snapshot_controller
