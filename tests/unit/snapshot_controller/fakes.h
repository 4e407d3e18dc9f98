// Fakes for the snapshot-controller's handler tests, in the style of
// upstream's controllerTest: a ControllerApi that keeps VolumeSnapshots,
// contents, claims and volumes the way the API server does
// (testsupport::FakeObjectServer) and records every call as (verb, resource,
// name, subresource, patch type, body); ControllerEvents that records what
// is reported; and the informers' stores with the Caches over them. Calls and
// Events are plain structs so a mismatch prints readably.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "kube/api/codec.h"
#include "kube/api/metadata_patch.h"
#include "kube/runtime/store.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/names.h"
#include "tests/support/api_call_log.h"
#include "tests/support/fake_object_server.h"

namespace snapshot_controller::testing {

using testsupport::ApiCall;
using testsupport::ApiFailure;

inline constexpr std::string_view kSnapshots = "volumesnapshots";
inline constexpr std::string_view kContents = "volumesnapshotcontents";
inline constexpr std::string_view kClaims = "persistentvolumeclaims";
inline constexpr std::string_view kVolumes = "persistentvolumes";
inline constexpr std::string_view kGroupSnapshots = "volumegroupsnapshots";
inline constexpr std::string_view kGroupContents = "volumegroupsnapshotcontents";

// The name an ApiCall carries: "<namespace>/<name>", or the name alone.
inline std::string CallName(const std::string& ns, const std::string& name) {
  return ns.empty() ? name : ns + "/" + name;
}
inline std::string PatchTypeName(kube::PatchType type) {
  return type == kube::PatchType::kJson ? "json" : "merge";
}

// Expected calls, by verb.
inline ApiCall GetCall(std::string_view resource, std::string name) {
  return {"get", std::string(resource), std::move(name), "", "", ""};
}
inline ApiCall PatchCall(std::string_view resource, std::string name, std::string patch_type,
                         std::string body, bool status = false) {
  return {"patch",
          std::string(resource),
          std::move(name),
          status ? "status" : "",
          std::move(patch_type),
          std::move(body)};
}
// `object` as its JSON body, e.g. the content a create sends.
template <class T>
ApiCall CreateCall(std::string_view resource, const T& object) {
  return {"create",
          std::string(resource),
          CallName(object.metadata.namespace_, object.metadata.name),
          "",
          "",
          nlohmann::json(object).dump()};
}
template <class T>
ApiCall UpdateCall(std::string_view resource, const T& object) {
  return {"update",
          std::string(resource),
          CallName(object.metadata.namespace_, object.metadata.name),
          "",
          "",
          nlohmann::json(object).dump()};
}
inline ApiCall DeleteCall(std::string_view resource, std::string name) {
  return {"delete", std::string(resource), std::move(name), "", "", ""};
}
// A list of `ns`; the body is the label selector.
inline ApiCall ListCall(std::string_view resource, std::string ns, std::string label_selector) {
  return {"list", std::string(resource), std::move(ns), "", "", std::move(label_selector)};
}

class FakeControllerApi final : public ControllerApi {
 public:
  explicit FakeControllerApi(std::vector<ApiFailure> failures = {}) : log_(std::move(failures)) {}

  // Stores `object` as the API server's copy, e.g. Put(Claim()).
  template <kube::ResourceKind T>
  void Put(const T& object) {
    std::lock_guard lock(mu_);
    server_.Put(object);
  }
  // Another writer changed the object: only its resourceVersion moves.
  template <kube::ResourceKind T>
  void BumpResourceVersion(const std::string& ns, const std::string& name) {
    std::lock_guard lock(mu_);
    server_.BumpResourceVersion<T>(ns, name);
  }
  // The API server's copy; nullopt when there is none.
  template <kube::ResourceKind T>
  std::optional<T> Stored(const std::string& ns, const std::string& name) const {
    std::lock_guard lock(mu_);
    return server_.Stored<T>(ns, name);
  }

  // Calls matching `failure` fail from now on (ApiFailure's rules).
  void Fail(ApiFailure failure) {
    std::lock_guard lock(mu_);
    log_.AddFailure(std::move(failure));
  }

  std::vector<ApiCall> calls() const {
    std::lock_guard lock(mu_);
    return log_.calls();
  }
  void ClearCalls() {
    std::lock_guard lock(mu_);
    log_.Clear();
  }

  base::Result<kube::VolumeSnapshot> GetSnapshot(const std::string& ns,
                                                 const std::string& name) override {
    return Get<kube::VolumeSnapshot>(kSnapshots, ns, name);
  }
  base::Result<kube::VolumeSnapshot> PatchSnapshot(const std::string& ns, const std::string& name,
                                                   kube::PatchType type, const std::string& patch,
                                                   bool status) override {
    return Patch<kube::VolumeSnapshot>(kSnapshots, ns, name, type, patch, status);
  }

  base::Result<kube::VolumeSnapshot> CreateSnapshot(const kube::VolumeSnapshot& snapshot) override {
    return Create(kSnapshots, snapshot);
  }
  base::Status DeleteSnapshot(const std::string& ns, const std::string& name) override {
    return Delete<kube::VolumeSnapshot>(kSnapshots, ns, name);
  }

  base::Result<kube::VolumeSnapshotContent> GetContent(const std::string& name) override {
    return Get<kube::VolumeSnapshotContent>(kContents, "", name);
  }
  base::Result<kube::VolumeSnapshotContent> CreateContent(
      const kube::VolumeSnapshotContent& content) override {
    return Create(kContents, content);
  }
  base::Result<kube::VolumeSnapshotContent> PatchContent(const std::string& name,
                                                         kube::PatchType type,
                                                         const std::string& patch,
                                                         bool status) override {
    return Patch<kube::VolumeSnapshotContent>(kContents, "", name, type, patch, status);
  }
  base::Status DeleteContent(const std::string& name) override {
    return Delete<kube::VolumeSnapshotContent>(kContents, "", name);
  }

  base::Result<kube::PersistentVolumeClaim> GetClaim(const std::string& ns,
                                                     const std::string& name) override {
    return Get<kube::PersistentVolumeClaim>(kClaims, ns, name);
  }
  base::Result<kube::PersistentVolumeClaim> UpdateClaimFinalizers(
      const kube::PersistentVolumeClaim& claim) override {
    std::lock_guard lock(mu_);
    if (auto error = log_.Record(UpdateCall(kClaims, claim))) return *error;
    auto updated = server_.Update(claim);
    if (updated.ok()) {
      const std::string key = kube::Store<kube::PersistentVolumeClaim>::KeyOf(*updated);
      if (kube::HasFinalizer(updated->metadata, kClaimAsSourceFinalizer)) {
        written_claims_.insert_or_assign(key, *updated);
      } else {
        written_claims_.erase(key);
      }
    }
    return updated;
  }
  // The answer to our last UpdateClaimFinalizers of the claim while it kept
  // the finalizer (unrecorded: no API call).
  std::optional<kube::PersistentVolumeClaim> WrittenClaimWithFinalizer(
      const std::string& ns, const std::string& name) override {
    std::lock_guard lock(mu_);
    auto it = written_claims_.find(kube::Store<kube::PersistentVolumeClaim>::KeyOf(ns, name));
    if (it == written_claims_.end()) return std::nullopt;
    return it->second;
  }

  // The stored claims of `ns` whose labels include every "k=v" of the selector.
  base::Result<std::vector<kube::PersistentVolumeClaim>> ListClaims(
      const std::string& ns, const std::string& label_selector) override;

  base::Result<kube::PersistentVolume> GetVolume(const std::string& name) override {
    return Get<kube::PersistentVolume>(kVolumes, "", name);
  }

  base::Result<kube::VolumeGroupSnapshot> GetGroupSnapshot(const std::string& ns,
                                                           const std::string& name) override {
    return Get<kube::VolumeGroupSnapshot>(kGroupSnapshots, ns, name);
  }
  base::Result<kube::VolumeGroupSnapshot> PatchGroupSnapshot(const std::string& ns,
                                                             const std::string& name,
                                                             kube::PatchType type,
                                                             const std::string& patch,
                                                             bool status) override {
    return Patch<kube::VolumeGroupSnapshot>(kGroupSnapshots, ns, name, type, patch, status);
  }

  base::Result<kube::VolumeGroupSnapshotContent> GetGroupContent(const std::string& name) override {
    return Get<kube::VolumeGroupSnapshotContent>(kGroupContents, "", name);
  }
  base::Result<kube::VolumeGroupSnapshotContent> CreateGroupContent(
      const kube::VolumeGroupSnapshotContent& content) override {
    return Create(kGroupContents, content);
  }
  base::Result<kube::VolumeGroupSnapshotContent> PatchGroupContent(
      const std::string& name, kube::PatchType type, const std::string& patch) override {
    return Patch<kube::VolumeGroupSnapshotContent>(kGroupContents, "", name, type, patch, false);
  }
  base::Status DeleteGroupContent(const std::string& name) override {
    return Delete<kube::VolumeGroupSnapshotContent>(kGroupContents, "", name);
  }

 private:
  template <kube::ResourceKind T>
  base::Result<T> Create(std::string_view resource, const T& object) {
    std::lock_guard lock(mu_);
    if (auto error = log_.Record(CreateCall(resource, object))) return *error;
    return server_.Create(object);
  }
  template <kube::ResourceKind T>
  base::Status Delete(std::string_view resource, const std::string& ns, const std::string& name) {
    std::lock_guard lock(mu_);
    if (auto error = log_.Record(DeleteCall(resource, CallName(ns, name)))) return *error;
    return server_.Delete<T>(ns, name);
  }
  template <kube::ResourceKind T>
  base::Result<T> Get(std::string_view resource, const std::string& ns, const std::string& name) {
    std::lock_guard lock(mu_);
    if (auto error = log_.Record(GetCall(resource, CallName(ns, name)))) return *error;
    return server_.Get<T>(ns, name);
  }
  template <kube::ResourceKind T>
  base::Result<T> Patch(std::string_view resource, const std::string& ns, const std::string& name,
                        kube::PatchType type, const std::string& patch, bool status) {
    std::lock_guard lock(mu_);
    if (auto error = log_.Record(
            PatchCall(resource, CallName(ns, name), PatchTypeName(type), patch, status))) {
      return *error;
    }
    return server_.Patch<T>(ns, name, type, patch, status);
  }

  mutable std::mutex mu_;
  testsupport::ApiCallLog log_;                                        // guarded by mu_
  testsupport::FakeObjectServer server_;                               // guarded by mu_
  std::map<std::string, kube::PersistentVolumeClaim> written_claims_;  // guarded by mu_
};

inline base::Result<std::vector<kube::PersistentVolumeClaim>> FakeControllerApi::ListClaims(
    const std::string& ns, const std::string& label_selector) {
  std::lock_guard lock(mu_);
  if (auto error = log_.Record(ListCall(kClaims, ns, label_selector))) return *error;
  std::vector<kube::PersistentVolumeClaim> matching;
  for (kube::PersistentVolumeClaim& claim : server_.List<kube::PersistentVolumeClaim>(ns)) {
    bool matches = true;
    for (size_t start = 0; start < label_selector.size();) {
      size_t end = label_selector.find(',', start);
      if (end == std::string::npos) end = label_selector.size();
      const std::string term = label_selector.substr(start, end - start);
      const size_t eq = term.find('=');
      auto label = claim.metadata.labels.find(term.substr(0, eq));
      matches =
          matches && label != claim.metadata.labels.end() && label->second == term.substr(eq + 1);
      start = end + 1;
    }
    if (matches) matching.push_back(std::move(claim));
  }
  return matching;
}

struct RecordedEvent {
  std::string type;  // Normal or Warning
  std::string reason;
  std::string message;
  std::string kind;  // of the object the Event is about
  std::string namespace_;
  std::string name;

  bool operator==(const RecordedEvent&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const RecordedEvent& e) {
    return os << e.type << " " << e.reason << " on " << e.kind << " "
              << CallName(e.namespace_, e.name) << ": " << e.message;
  }
};

class FakeControllerEvents final : public ControllerEvents {
 public:
  void Record(const kube::ObjectReference& object, std::string_view type, std::string_view reason,
              std::string_view message) override {
    std::lock_guard lock(mu_);
    events_.push_back({std::string(type), std::string(reason), std::string(message), object.kind,
                       object.namespace_, object.name});
  }
  std::vector<RecordedEvent> events() const {
    std::lock_guard lock(mu_);
    return events_;
  }
  void Clear() {
    std::lock_guard lock(mu_);
    events_.clear();
  }

 private:
  mutable std::mutex mu_;
  std::vector<RecordedEvent> events_;  // guarded by mu_
};

// The informers' stores and the Caches over them. `nodes` is in the Caches
// only once UseNodes() is called (distributed snapshotting), the group
// stores only once UseGroups() is (group snapshots on).
class FakeCaches {
 public:
  template <class T>
  void Add(T object) {
    StoreOf<T>().Upsert(std::make_shared<const T>(std::move(object)));
  }
  void UseNodes() { caches_.nodes = &nodes_; }
  void UseGroups() { caches_.groups = &groups_; }

  kube::Store<kube::VolumeSnapshot>& snapshots() { return snapshots_; }
  kube::Store<kube::VolumeSnapshotContent>& contents() { return contents_; }
  kube::Store<kube::VolumeSnapshotClass>& classes() { return classes_; }
  kube::Store<kube::PersistentVolumeClaim>& claims() { return claims_; }
  kube::Store<kube::PersistentVolume>& volumes() { return volumes_; }
  kube::Store<kube::Node>& nodes() { return nodes_; }
  kube::Store<kube::VolumeGroupSnapshot>& group_snapshots() { return group_snapshots_; }
  kube::Store<kube::VolumeGroupSnapshotContent>& group_contents() { return group_contents_; }

  const Caches& caches() const { return caches_; }

 private:
  template <class T>
  kube::Store<T>& StoreOf() {
    if constexpr (std::is_same_v<T, kube::VolumeSnapshot>) return snapshots_;
    if constexpr (std::is_same_v<T, kube::VolumeSnapshotContent>) return contents_;
    if constexpr (std::is_same_v<T, kube::VolumeSnapshotClass>) return classes_;
    if constexpr (std::is_same_v<T, kube::PersistentVolumeClaim>) return claims_;
    if constexpr (std::is_same_v<T, kube::PersistentVolume>) return volumes_;
    if constexpr (std::is_same_v<T, kube::Node>) return nodes_;
    if constexpr (std::is_same_v<T, kube::VolumeGroupSnapshot>) return group_snapshots_;
    if constexpr (std::is_same_v<T, kube::VolumeGroupSnapshotContent>) return group_contents_;
    if constexpr (std::is_same_v<T, kube::VolumeGroupSnapshotClass>) return group_classes_;
  }

  kube::Store<kube::VolumeSnapshot> snapshots_;
  kube::Store<kube::VolumeSnapshotContent> contents_;
  kube::Store<kube::VolumeSnapshotClass> classes_;
  kube::Store<kube::PersistentVolumeClaim> claims_;
  kube::Store<kube::PersistentVolume> volumes_;
  kube::Store<kube::Node> nodes_;
  kube::Store<kube::VolumeGroupSnapshot> group_snapshots_;
  kube::Store<kube::VolumeGroupSnapshotContent> group_contents_;
  kube::Store<kube::VolumeGroupSnapshotClass> group_classes_;
  GroupCaches groups_{group_snapshots_, group_contents_, group_classes_};
  Caches caches_{snapshots_, contents_, classes_, claims_, volumes_};
};

}  // namespace snapshot_controller::testing
