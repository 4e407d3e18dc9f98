// Merge patches for the VolumeAttachment `status` subresource (docs/attacher.md
// §5.3 step 8 and errors, §5.4 (b)), each computed like upstream's
// CreateMergePatch(json(va), json(modified va)): only what changes is sent,
// e.g. `"attachError":null` only when the cached VA carries an error. An
// empty string means nothing would change; callers skip that write.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "kube/api/storage/v1/volume_attachment.h"

namespace attacher {

// attached: true, attachmentMetadata = the driver's publish_context, no attachError.
std::string MarkAttachedPatch(const kube::VolumeAttachment& va,
                              const std::map<std::string, std::string>& publish_context);

// attached: false, no detachError, no attachmentMetadata.
std::string MarkDetachedPatch(const kube::VolumeAttachment& va);

// attachError removed, nothing else changed.
std::string ClearAttachErrorPatch(const kube::VolumeAttachment& va);

std::string AttachErrorPatch(const kube::VolumeAttachment& va, const kube::VolumeError& error);
std::string DetachErrorPatch(const kube::VolumeAttachment& va, const kube::VolumeError& error);

// An error stamped with `now` as metav1.Time writes it: RFC 3339, UTC, seconds.
kube::VolumeError MakeVolumeError(std::string message, std::chrono::system_clock::time_point now,
                                  std::optional<int32_t> error_code);

}  // namespace attacher
