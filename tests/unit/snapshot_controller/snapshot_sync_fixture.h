// The fixture of the SnapshotSync tests (HandlerTest's objects in, calls,
// Events and metrics out), with one Sync in between.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/clock.h"
#include "kube/api/codec.h"
#include "metrics/registry.h"
#include "snapshot_controller/claim_finalizer.h"
#include "snapshot_controller/names.h"
#include "snapshot_controller/snapshot_sync.h"
#include "tests/unit/snapshot_controller/handler_fixture.h"

namespace snapshot_controller::testing {

// FakeClock's wall time as metav1.Time writes it.
inline constexpr std::string_view kNow = "2023-11-14T22:13:20Z";
inline kube::VolumeSnapshotClass DefaultClass(std::string name, std::string driver) {
  return Class([&](kube::VolumeSnapshotClass& c) {
    c.metadata.name = std::move(name);
    c.driver = std::move(driver);
    c.metadata.annotations = {{std::string(kube::kIsDefaultSnapshotClassAnnotation), "true"}};
  });
}

inline void WithFinalizers(kube::VolumeSnapshot& s) { s.metadata.finalizers = {kAsSource, kBound}; }

// The snapshot's status as the controller leaves it, bound to `content`.
inline void BoundTo(kube::VolumeSnapshot& s, const std::string& content, bool ready) {
  s.status = kube::VolumeSnapshotStatus{.bound_volume_snapshot_content_name = content,
                                        .ready_to_use = ready};
}

// --- Expected calls --------------------------------------------------------

// A status merge patch guarded by resourceVersion `rv`.
inline ApiCall PatchSnapshotStatus(const std::string& rv, const nlohmann::json& status) {
  return PatchCall(
      kSnapshots, kSnapshotKey, "merge",
      nlohmann::json{{"metadata", {{"resourceVersion", rv}}}, {"status", status}}.dump(),
      /*status=*/true);
}
// The finalizers a snapshot without any gets: as-source, and bound too when `bound`.
inline ApiCall AddSnapshotFinalizers(bool bound) {
  nlohmann::json ops = {{{"op", "test"}, {"path", "/metadata/finalizers"}, {"value", nullptr}},
                        {{"op", "add"},
                         {"path", "/metadata/finalizers"},
                         {"value", nlohmann::json::array({kAsSource})}}};
  if (bound) {
    ops.push_back({{"op", "test"},
                   {"path", "/metadata/finalizers"},
                   {"value", nlohmann::json::array({kAsSource})}});
    ops.push_back({{"op", "add"}, {"path", "/metadata/finalizers/-"}, {"value", kBound}});
  }
  return PatchSnapshot(ops);
}
inline nlohmann::json ErrorStatus(const std::string& message) {
  return {{"message", message}, {"time", kNow}};
}
// The fresh read that the finalizer's addition writes from.
inline ApiCall ReadClaim() { return GetCall(kClaims, "default/claim-1"); }
inline ApiCall UpdateClaimAddingFinalizer() {
  return UpdateCall(kClaims, Decoded(Claim([](kube::PersistentVolumeClaim& c) {
                      c.metadata.finalizers = {std::string(kClaimAsSourceFinalizer)};
                    })));
}
inline RecordedEvent CreatingSnapshot() {
  return Normal("CreatingSnapshot",
                "Waiting for a snapshot default/snap-1 to be created by the CSI driver.");
}

class SnapshotSyncTest : public HandlerTest {
 protected:
  // The objects of a dynamic snapshot's source: claim, volume, class gold.
  void HaveSource() {
    Have(Claim());
    Have(Volume());
    Have(Class());
  }

  // Stores `snapshot` (cache and server) and syncs the cached copy.
  base::Status Sync(const kube::VolumeSnapshot& snapshot) {
    api_.Put(Decoded(snapshot));
    return SyncFromCache(snapshot);
  }
  // Syncs `snapshot` as the cache holds it, whatever the server has.
  base::Status SyncFromCache(const kube::VolumeSnapshot& snapshot) {
    InCache(snapshot);
    sync_ = std::make_unique<SnapshotSync>(api_, caches_.caches(), claim_finalizer_, written_,
                                           events_, metrics_, options_, clock_);
    auto cached = caches_.snapshots().Get(snapshot.metadata.namespace_, snapshot.metadata.name);
    return sync_->Sync(*cached);
  }

  HandlerOptions options_;
  WrittenSnapshots written_;  // shared by the syncs of one test, as by a handler's
  std::unique_ptr<SnapshotSync> sync_;
};

}  // namespace snapshot_controller::testing
