// A watch decoder's event handler that keeps every VolumeAttachment event it
// is given, for the JSON and protobuf watch decoder tests.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/api/watch_event.h"

namespace kube::testing {

struct CollectedEvents {
  std::vector<WatchEvent<VolumeAttachment>> events;
  std::function<bool(WatchEvent<VolumeAttachment>&&)> handler = [this](auto&& e) {
    events.push_back(std::move(e));
    return true;
  };
};

}  // namespace kube::testing
