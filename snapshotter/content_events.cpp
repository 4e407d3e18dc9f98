#include "snapshotter/content_events.h"

namespace snapshotter {

template <class Content>
void RecordedContentEventsOf<Content>::CreationFailed(const Content& content,
                                                      const std::string& message) {
  Warn(content, EventReasonsFor(content).creation_failed, message);
}

template <class Content>
void RecordedContentEventsOf<Content>::CheckAndUpdateFailed(const Content& content,
                                                            const std::string& message) {
  Warn(content, EventReasonsFor(content).check_and_update_failed, message);
}

template <class Content>
void RecordedContentEventsOf<Content>::DeleteFailed(const Content& content,
                                                    std::string_view message) {
  Warn(content, EventReasonsFor(content).delete_error, message);
}

template <class Content>
void RecordedContentEventsOf<Content>::Warn(const Content& content, std::string_view reason,
                                            std::string_view message) {
  recorder_.Record(kube::ReferenceTo(content), kube::kEventTypeWarning, reason, message);
}

template class RecordedContentEventsOf<kube::VolumeSnapshotContent>;
template class RecordedContentEventsOf<kube::VolumeGroupSnapshotContent>;

}  // namespace snapshotter
