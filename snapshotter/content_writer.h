// ContentWriterOf<Content>: the writes of one sync to one content
// (VolumeSnapshotContent: ContentWriter; VolumeGroupSnapshotContent:
// GroupContentWriter), each computed from the content as this sync last saw
// it - the cached copy, then each write's answer - so no write needs a GET
// first (docs/snapshots.md §9.4):
//   - annotations and finalizers change through JSON Patches whose `test`
//     ops guard just the key or entry they touch: a stale copy makes the API
//     server refuse the patch (422), and the caller's retry sees a newer one;
//   - status changes through one merge patch on the status subresource that
//     carries metadata.resourceVersion as a precondition; on 409 Conflict the
//     content is read once, the status computed again from it and the patch
//     retried at once, one time.
// A failed write reads "snapshot controller failed to update <name> on API
// server: <error>", as upstream's; a failed read "error get snapshot content
// <name> from api server: <error>" ("group snapshot content" for a group).
// Every method is a no-op when the content already is as asked. Not
// thread-safe: one sync owns it. Both kinds are instantiated in
// content_writer.cpp.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/json_patch.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "snapshotter/snapshot_api.h"

namespace snapshotter {

template <class Content>
class ContentWriterOf {
 public:
  // std::optional of the kind's status: nullopt is a content without one.
  using Status = decltype(Content::status);

  ContentWriterOf(SnapshotApi& api, Content content) : api_(api), content_(std::move(content)) {}

  // The content as the last write (or read) returned it.
  const Content& content() const { return content_; }

  // Adds annotation `key` unless the content has it (with any value).
  base::Status AddAnnotation(std::string_view key, std::string_view value);
  base::Status RemoveAnnotation(std::string_view key);
  // A content the API server no longer has counts as done.
  base::Status RemoveFinalizer(std::string_view finalizer);

  // The status `change` computes from the current one; nullopt, or the
  // current status itself, means no change.
  using StatusChange = std::function<Status(const Status&)>;
  base::Status WriteStatus(const StatusChange& change);

 private:
  base::Status Patch(const kube::JsonPatch& patch);
  // The merge patch turning the content's status into `status`, with the
  // resourceVersion precondition.
  std::string StatusPatch(const Status& status) const;
  base::Error UpdateFailed(const base::Error& error) const;

  SnapshotApi& api_;
  Content content_;
};

extern template class ContentWriterOf<kube::VolumeSnapshotContent>;
extern template class ContentWriterOf<kube::VolumeGroupSnapshotContent>;

using ContentWriter = ContentWriterOf<kube::VolumeSnapshotContent>;
using GroupContentWriter = ContentWriterOf<kube::VolumeGroupSnapshotContent>;

}  // namespace snapshotter
