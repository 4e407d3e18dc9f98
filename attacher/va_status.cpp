#include "attacher/va_status.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <utility>

#include "kube/codec.h"
#include "kube/merge_patch.h"

namespace attacher {
namespace {

// The patch turning `va`'s status into `va`'s status after `change`.
template <class Change>
std::string StatusPatch(const kube::VolumeAttachment& va, Change change) {
  kube::VolumeAttachmentStatus modified = va.status;
  change(modified);
  nlohmann::json patch =
      kube::CreateMergePatch({{"status", va.status}}, {{"status", std::move(modified)}});
  return patch.empty() ? std::string() : patch.dump();
}

}  // namespace

std::string MarkAttachedPatch(const kube::VolumeAttachment& va,
                              const std::map<std::string, std::string>& publish_context) {
  return StatusPatch(va, [&](kube::VolumeAttachmentStatus& status) {
    status.attached = true;
    status.attachment_metadata = kube::StringMap();
    for (const auto& [key, value] : publish_context) status.attachment_metadata[key] = value;
    status.attach_error.reset();
  });
}

std::string MarkDetachedPatch(const kube::VolumeAttachment& va) {
  return StatusPatch(va, [](kube::VolumeAttachmentStatus& status) {
    status.attached = false;
    status.detach_error.reset();
    status.attachment_metadata = kube::StringMap();
  });
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
  error.time =
      fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::chrono::system_clock::to_time_t(now)));
  error.error_code = error_code;
  return error;
}

}  // namespace attacher
