#include "attacher/va_status.h"

#include <utility>

#include "kube/api/merge_patch.h"
#include "kube/api/meta_time.h"

namespace attacher {
namespace {

// The patch turning `va`'s status into `va`'s status after `change`.
template <class Change>
nlohmann::json StatusDiff(const kube::VolumeAttachment& va, Change change) {
  kube::VolumeAttachmentStatus modified = va.status;
  change(modified);
  return kube::CreateMergePatch("status", va.status, modified);
}

template <class Change>
std::string StatusPatch(const kube::VolumeAttachment& va, Change change) {
  nlohmann::json patch = StatusDiff(va, change);
  return patch.empty() ? std::string() : patch.dump();
}

// Upstream diffs against the cached VA, so when the cache has not yet seen the
// error a previous attempt saved, the success patch leaves that error in place
// (and an attached VA keeps showing a stale attachError). The final-state
// fields are therefore always written, whatever the cache says.
template <class Change>
std::string FinalStatusPatch(const kube::VolumeAttachment& va, Change change, bool attached,
                             std::string_view error_field) {
  nlohmann::json patch = StatusDiff(va, change);
  patch["status"]["attached"] = attached;
  patch["status"][std::string(error_field)] = nullptr;
  return patch.dump();
}

}  // namespace

std::string MarkAttachedPatch(const kube::VolumeAttachment& va,
                              const std::map<std::string, std::string>& publish_context) {
  return FinalStatusPatch(
      va,
      [&](kube::VolumeAttachmentStatus& status) {
        status.attached = true;
        status.attachment_metadata = kube::StringMap();
        for (const auto& [key, value] : publish_context) status.attachment_metadata[key] = value;
        status.attach_error.reset();
      },
      true, "attachError");
}

std::string MarkDetachedPatch(const kube::VolumeAttachment& va) {
  return FinalStatusPatch(
      va,
      [](kube::VolumeAttachmentStatus& status) {
        status.attached = false;
        status.detach_error.reset();
        status.attachment_metadata = kube::StringMap();
      },
      false, "detachError");
}

std::string ClearAttachErrorPatch(const kube::VolumeAttachment& va) {
  return StatusPatch(va, [](kube::VolumeAttachmentStatus& status) { status.attach_error.reset(); });
}

std::string AttachErrorPatch(const kube::VolumeAttachment& va, const kube::VolumeError& error) {
  return StatusPatch(va,
                     [&](kube::VolumeAttachmentStatus& status) { status.attach_error = error; });
}

std::string DetachErrorPatch(const kube::VolumeAttachment& va, const kube::VolumeError& error) {
  return StatusPatch(va,
                     [&](kube::VolumeAttachmentStatus& status) { status.detach_error = error; });
}

kube::VolumeError MakeVolumeError(std::string message, std::chrono::system_clock::time_point now,
                                  std::optional<int32_t> error_code) {
  kube::VolumeError error;
  error.message = std::move(message);
  error.time = kube::FormatMetaTime(now);
  error.error_code = error_code;
  return error;
}

}  // namespace attacher
