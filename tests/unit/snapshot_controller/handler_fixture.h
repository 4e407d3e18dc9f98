// What the tables of the handler's parts (SnapshotSync, SnapshotDeletion,
// ContentSync) share, in the style of upstream's controllerTest: objects in
// (on the fake API server and, decoded as an informer's copy, in the caches),
// then the exact API calls, Events and metrics out. Patch bodies are written
// as the JSON Patch they must be.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "kube/api/codec.h"
#include "metrics/registry.h"
#include "snapshot/names.h"
#include "snapshot_controller/claim_finalizer.h"
#include "snapshot_controller/names.h"
#include "snapshot_controller/operation_metrics.h"
#include "tests/unit/snapshot_controller/fakes.h"
#include "tests/unit/snapshot_controller/objects.h"

namespace snapshot_controller::testing {

inline const std::string kAsSource(kSnapshotAsSourceFinalizer);
inline const std::string kBound(kSnapshotBoundFinalizer);
inline const std::string kInGroup(kSnapshotInGroupFinalizer);
inline const std::string kContentFinalizer(snapshot::kContentFinalizer);
inline const std::string kBeingDeleted(snapshot::kBeingDeletedAnnotation);
inline const std::string kSnapshotKey = "default/snap-1";

// `object` as an informer or the API server hands it out.
template <class T>
T Decoded(const T& object) {
  auto decoded = kube::ObjectFromJson<T>(nlohmann::json(object));
  EXPECT_TRUE(decoded.ok()) << decoded.error().message;
  return decoded.ok() ? *decoded : T{};
}

// JSON Patches of default/snap-1 and of a content, e.g.
// PatchSnapshot(R"([{"op": "remove", ...}])"_json).
inline ApiCall PatchSnapshot(const nlohmann::json& ops) {
  return PatchCall(kSnapshots, kSnapshotKey, "json", ops.dump());
}
inline ApiCall PatchContent(const std::string& name, const nlohmann::json& ops) {
  return PatchCall(kContents, name, "json", ops.dump());
}
// The being-deleted annotation on a content without annotations.
inline ApiCall MarkBeingDeleted(const std::string& content) {
  return PatchContent(
      content,
      {{{"op", "test"}, {"path", "/metadata/annotations"}, {"value", nullptr}},
       {{"op", "add"}, {"path", "/metadata/annotations"}, {"value", {{kBeingDeleted, "yes"}}}}});
}

// Events about default/snap-1.
inline RecordedEvent Warning(std::string reason, std::string message) {
  return {"Warning", std::move(reason), std::move(message), "VolumeSnapshot", "default", "snap-1"};
}
inline RecordedEvent Normal(std::string reason, std::string message) {
  return {"Normal", std::move(reason), std::move(message), "VolumeSnapshot", "default", "snap-1"};
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
  std::string Metrics() const { return registry_.Expose(); }

  FakeCaches caches_;
  FakeControllerApi api_;
  FakeControllerEvents events_;
  metrics::Registry registry_;
  base::FakeClock clock_;
  OperationMetrics metrics_{registry_, clock_};
  ClaimFinalizer claim_finalizer_{api_, caches_.caches()};
};

}  // namespace snapshot_controller::testing
