#include "kube/api/watch_event.h"

namespace kube {

bool ParseWatchEventType(std::string_view text, WatchEventType& type) {
  if (text == "ADDED") {
    type = WatchEventType::kAdded;
  } else if (text == "MODIFIED") {
    type = WatchEventType::kModified;
  } else if (text == "DELETED") {
    type = WatchEventType::kDeleted;
  } else if (text == "BOOKMARK") {
    type = WatchEventType::kBookmark;
  } else if (text == "ERROR") {
    type = WatchEventType::kError;
  } else {
    return false;
  }
  return true;
}

}  // namespace kube
