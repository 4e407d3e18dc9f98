// What the tables of the deletion and content-sync tests share, in the style
// of upstream's controllerTest: objects in (on the fake API server and, as an
// informer decodes them, in the caches), then the exact API calls and Events
// out. Patch bodies are written as the JSON Patch they must be.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kube/api/codec.h"
#include "snapshot_controller/names.h"
#include "snapshotter/names.h"
#include "tests/unit/snapshot_controller/fakes.h"
#include "tests/unit/snapshot_controller/objects.h"

namespace snapshot_controller::testing {

inline const std::string kAsSource(kSnapshotAsSourceFinalizer);
inline const std::string kBound(kSnapshotBoundFinalizer);
inline const std::string kInGroup(kSnapshotInGroupFinalizer);
inline const std::string kContentFinalizer(snapshotter::kContentFinalizer);
inline const std::string kBeingDeleted(snapshotter::kBeingDeletedAnnotation);
inline const std::string kSnapshotKey = "default/snap-1";

// `object` as an informer or the API server hands it out.
template <class T>
T Decoded(const T& object) {
  auto decoded = kube::ObjectFromJson<T>(nlohmann::json(object));
  EXPECT_TRUE(decoded.ok()) << decoded.error().message;
  return decoded.ok() ? *decoded : T{};
}

inline ApiCall PatchSnapshotCall(const char* ops) {
  return PatchCall(kSnapshots, kSnapshotKey, "json", nlohmann::json::parse(ops).dump());
}
inline ApiCall PatchContentCall(const std::string& name, const char* ops) {
  return PatchCall(kContents, name, "json", nlohmann::json::parse(ops).dump());
}

// The being-deleted annotation on a content without annotations.
inline ApiCall MarkBeingDeletedCall(const std::string& content) {
  return PatchContentCall(content, R"([
      {"op": "test", "path": "/metadata/annotations", "value": null},
      {"op": "add", "path": "/metadata/annotations",
       "value": {"snapshot.storage.kubernetes.io/volumesnapshot-being-deleted": "yes"}}])");
}

inline RecordedEvent SnapshotWarning(std::string reason, std::string message) {
  return {"Warning", std::move(reason), std::move(message), "VolumeSnapshot", "default", "snap-1"};
}

class HandlerTest : public ::testing::Test {
 protected:
  // `object` on the API server and, decoded, in the caches.
  template <class T>
  void Have(const T& object) {
    api_.Put(Decoded(object));
    InCache(object);
  }
  // `object` in the caches only (the server has another copy, or none).
  template <class T>
  void InCache(const T& object) {
    caches_.Add(Decoded(object));
  }

  std::optional<kube::VolumeSnapshot> StoredSnapshot() {
    return api_.Stored<kube::VolumeSnapshot>("default", "snap-1");
  }
  std::optional<kube::VolumeSnapshotContent> StoredContent(const std::string& name) {
    return api_.Stored<kube::VolumeSnapshotContent>("", name);
  }

  FakeCaches caches_;
  FakeControllerApi api_;
  FakeControllerEvents events_;
};

}  // namespace snapshot_controller::testing
