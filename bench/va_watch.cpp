#include "bench/va_watch.h"

#include <chrono>
#include <cstdio>

namespace bench {

base::Result<std::unique_ptr<VaWatch>> VaWatch::Start(kube::Client& client, Callback callback) {
  std::unique_ptr<VaWatch> watch(new VaWatch(client, std::move(callback)));
  auto list = client.List<kube::VolumeAttachment>("");
  if (!list.ok()) return list.error().Wrap("listing VolumeAttachments");
  for (const auto& va : list->items) watch->callback_(va, false);
  watch->watcher_ = std::jthread([w = watch.get(), rv = list->metadata.resource_version](
                                     std::stop_token stop) { w->WatchLoop(stop, rv); });
  return watch;
}

VaWatch::~VaWatch() {
  watcher_.request_stop();
  if (watcher_.joinable()) watcher_.join();
}

void VaWatch::WatchLoop(std::stop_token stop, std::string resource_version) {
  // A benchmark never runs long enough for its resourceVersion to be
  // compacted away, so a resumed watch needs no relist.
  while (!stop.stop_requested()) {
    kube::WatchOptions options{.resource_version = resource_version, .timeout_seconds = 3600};
    std::function<bool(kube::WatchEvent<kube::VolumeAttachment> &&)> on_event =
        [&](kube::WatchEvent<kube::VolumeAttachment>&& event) {
          if (event.type == kube::WatchEventType::kError) return false;
          resource_version = event.object.metadata.resource_version;
          if (event.type == kube::WatchEventType::kBookmark) return true;
          callback_(event.object, event.type == kube::WatchEventType::kDeleted);
          return true;
        };
    auto status = client_.Watch<kube::VolumeAttachment>("", options, on_event, stop);
    if (!status.ok() && !stop.stop_requested()) {
      std::fprintf(stderr, "bench: VolumeAttachment watch failed: %s\n",
                   status.error().message.c_str());
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
}

}  // namespace bench
