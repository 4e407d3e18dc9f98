// ReportStatusError: how a sync reports a failure on the object it syncs
// (docs/snapshots.md §4.3 "Error statuses", §4.7), upstream's
// update(Group)SnapshotErrorStatusWithEvent: unless the status already holds
// that very message, status.error becomes {now, message} (and readyToUse
// false when `set_not_ready`), written through the sync's writer; the
// Warning Event is recorded even when that write failed. Returns the write's
// outcome. `Writer` is the sync's writer of a VolumeSnapshot or a
// VolumeGroupSnapshot (object() and WriteStatus(change)).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/core/v1/event.h"
#include "kube/api/meta_time.h"
#include "kube/client/status_patch_from_cache.h"
#include "snapshot_controller/controller_events.h"

namespace snapshot_controller {

template <class Writer>
base::Status ReportStatusError(Writer& writer, ControllerEvents& events, base::Clock& clock,
                               bool set_not_ready, std::string_view reason,
                               const std::string& message) {
  using Object = std::decay_t<decltype(writer.object())>;
  auto has_message = [&](const Object& object) {
    return object.status && object.status->error && object.status->error->message == message;
  };
  if (has_message(writer.object())) return base::Status::Ok();
  const std::string now = kube::FormatMetaTime(clock.WallNow());
  base::Status written =
      writer.WriteStatus([&](const Object& current) -> std::optional<kube::StatusOf<Object>> {
        if (has_message(current)) return std::nullopt;
        kube::StatusOf<Object> status = current.status.value_or(kube::StatusOf<Object>{});
        status.error = kube::VolumeSnapshotError{.time = now, .message = message};
        if (set_not_ready) status.ready_to_use = false;
        return status;
      });
  events.Record(kube::ReferenceTo(writer.object()), kube::kEventTypeWarning, reason, message);
  return written;
}

}  // namespace snapshot_controller
