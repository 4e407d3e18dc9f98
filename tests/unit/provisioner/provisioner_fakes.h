// In-memory fakes for the provisioner's controller tests
// (claim_controller_test.cpp, volume_controller_test.cpp): one CallLog that
// every fake writes to, so a test asserts the order of CSI calls, API calls
// and Events together; a scripted VolumeDriver, a recording ProvisionerApi
// that answers as the API server does, recording ClaimEvents and
// VolumeEvents; the objects the tests start from; and World, the fixture
// that runs a controller over FakeListerWatchers and a FakeClock.
//
// Waits are real-time hand-offs bounded by kHandOffTimeout; time itself only
// moves when a test advances the FakeClock. Header-only, every definition
// inline: test files compile several to a translation unit.
#pragma once

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "csi/proto/csi.pb.h"
#include "kube/api/core/v1/event.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/core/v1/secret.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/api/storage/v1/storage_class.h"
#include "kube/client/write_observer.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/run_controllers.h"
#include "kube/tools/event_api.h"
#include "provisioner/claim_events.h"
#include "provisioner/names.h"
#include "provisioner/provisioner_api.h"
#include "provisioner/volume_driver.h"
#include "provisioner/volume_events.h"
#include "tests/support/fake_lister_watcher.h"
#include "tests/support/hand_off.h"

namespace provisioner::fakes {

inline constexpr std::string_view kDriver = "fast.csi.example.com";
inline constexpr std::string_view kOtherDriver = "other.csi.example.com";
inline constexpr std::string_view kClaimNamespace = "apps";
// The data source finalizers, in upstream's words (§3.3 step 8).
inline constexpr std::string_view kCloneFinalizer =
    "provisioner.storage.kubernetes.io/cloning-protection";
inline constexpr std::string_view kSnapshotFinalizer =
    "provisioner.storage.kubernetes.io/volumesnapshot-as-source-protection";

// One thing a fake was asked: the verb (a CSI call, an API verb or an
// Event), the object (volume, PV, claim "<namespace>/<name>" or Secret
// "<namespace>/<name>"), the rest (a body, secrets, a message) and the fake
// time it was asked at.
struct Call {
  std::string verb;
  std::string object;
  std::string detail;
  base::Clock::TimePoint at;

  std::string Text() const { return verb + " " + object + (detail.empty() ? "" : ": " + detail); }
};

class CallLog {
 public:
  explicit CallLog(const base::Clock& clock) : clock_(clock) {}

  void Add(std::string verb, std::string object, std::string detail = "") {
    const base::Clock::TimePoint now = clock_.Now();
    std::lock_guard lock(mu_);
    calls_.push_back({std::move(verb), std::move(object), std::move(detail), now});
    cv_.notify_all();
  }

  // Every call, as text, in order.
  std::vector<std::string> All() const {
    return TextsWhere([](const Call&) { return true; });
  }
  // The calls about any of `objects`, as text, in order.
  std::vector<std::string> Of(std::initializer_list<std::string_view> objects) const {
    std::vector<std::string> wanted(objects.begin(), objects.end());
    return TextsWhere([&](const Call& call) {
      for (const std::string& object : wanted) {
        if (call.object == object) return true;
      }
      return false;
    });
  }
  size_t Count(std::string_view verb, std::string_view object) const {
    std::lock_guard lock(mu_);
    return CountLocked(verb, object);
  }
  // When each `verb` call on `object` was made, in order.
  std::vector<base::Clock::TimePoint> Times(std::string_view verb, std::string_view object) const {
    std::lock_guard lock(mu_);
    std::vector<base::Clock::TimePoint> times;
    for (const Call& call : calls_) {
      if (call.verb == verb && call.object == object) times.push_back(call.at);
    }
    return times;
  }
  // Waits until `n` `verb` calls on `object` have been made.
  bool Await(std::string_view verb, std::string_view object, size_t n = 1) const {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, testsupport::kHandOffTimeout,
                        [&] { return CountLocked(verb, object) >= n; });
  }

 private:
  template <class Predicate>
  std::vector<std::string> TextsWhere(Predicate wanted) const {
    std::lock_guard lock(mu_);
    std::vector<std::string> texts;
    for (const Call& call : calls_) {
      if (wanted(call)) texts.push_back(call.Text());
    }
    return texts;
  }
  size_t CountLocked(std::string_view verb, std::string_view object) const {
    size_t n = 0;
    for (const Call& call : calls_) n += call.verb == verb && call.object == object;
    return n;
  }

  const base::Clock& clock_;
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::vector<Call> calls_;  // guarded by mu_
};

// "{k=v,...}", sorted by key, as the log shows secrets.
inline std::string SecretsText(const Secrets& secrets) {
  std::string text = "{";
  for (const auto& [key, value] : secrets) {
    if (text.size() > 1) text += ",";
    text += key + "=" + value;
  }
  return text + "}";
}

// Pops the next scripted answer for `key`, if any.
template <class Answer>
std::optional<Answer> NextAnswer(std::map<std::string, std::deque<Answer>>& script,
                                 const std::string& key) {
  auto it = script.find(key);
  if (it == script.end() || it->second.empty()) return std::nullopt;
  Answer answer = std::move(it->second.front());
  it->second.pop_front();
  return answer;
}

// One answer of the fake driver's CreateVolume.
struct CreateAnswer {
  std::optional<base::Error> error = {};  // the call fails
  std::optional<int64_t> capacity = {};   // else the volume's capacity; default: as requested
  bool drops_content_source = false;      // the answer omits the request's content source
};
inline CreateAnswer CreateFails(int grpc_code, std::string message) {
  return {.error = base::Error::Grpc(grpc_code, std::move(message))};
}
inline CreateAnswer CreatesWithCapacity(int64_t bytes) { return {.capacity = bytes}; }
inline CreateAnswer CreatesWithoutContentSource() { return {.drops_content_source = true}; }

// A CSI driver that answers from a script per volume name / volume ID and
// else succeeds: CreateVolume makes "vol-<name>" of the requested size, from
// the request's content source, accessible from its first preferred topology.
// Logs "CreateVolume <name>" and "DeleteVolume <id>: <secrets>".
class FakeVolumeDriver final : public VolumeDriver {
 public:
  explicit FakeVolumeDriver(CallLog& log) : log_(log) {}

  void ScriptCreate(const std::string& name, std::vector<CreateAnswer> answers) {
    std::lock_guard lock(mu_);
    creates_[name].assign(answers.begin(), answers.end());
  }
  void ScriptDelete(const std::string& volume_id, std::vector<base::Status> answers) {
    std::lock_guard lock(mu_);
    deletes_[volume_id].assign(answers.begin(), answers.end());
  }
  // The calls made for migrated volumes, as "CreateVolume <name>" and
  // "DeleteVolume <id>", in order.
  std::vector<std::string> MigratedCalls() const {
    std::lock_guard lock(mu_);
    return migrated_calls_;
  }
  // The requests CreateVolume got for `name`, in order.
  std::vector<csi::v1::CreateVolumeRequest> CreateRequests(const std::string& name) const {
    std::lock_guard lock(mu_);
    auto it = requests_.find(name);
    return it == requests_.end() ? std::vector<csi::v1::CreateVolumeRequest>() : it->second;
  }

  base::Result<csi::v1::Volume> CreateVolume(const csi::v1::CreateVolumeRequest& request,
                                             bool migrated) override {
    std::optional<CreateAnswer> answer;
    {
      std::lock_guard lock(mu_);
      requests_[request.name()].push_back(request);
      if (migrated) migrated_calls_.push_back("CreateVolume " + request.name());
      answer = NextAnswer(creates_, request.name());
    }
    log_.Add("CreateVolume", request.name());
    if (answer && answer->error) return *answer->error;
    csi::v1::Volume volume;
    volume.set_volume_id("vol-" + request.name());
    volume.set_capacity_bytes(
        answer && answer->capacity ? *answer->capacity : request.capacity_range().required_bytes());
    if (request.has_volume_content_source() && !(answer && answer->drops_content_source)) {
      *volume.mutable_content_source() = request.volume_content_source();
    }
    if (!request.accessibility_requirements().preferred().empty()) {
      *volume.add_accessible_topology() = request.accessibility_requirements().preferred(0);
    }
    return volume;
  }

  base::Status DeleteVolume(const std::string& volume_id, const Secrets& secrets,
                            bool migrated) override {
    std::optional<base::Status> answer;
    {
      std::lock_guard lock(mu_);
      if (migrated) migrated_calls_.push_back("DeleteVolume " + volume_id);
      answer = NextAnswer(deletes_, volume_id);
    }
    log_.Add("DeleteVolume", volume_id, SecretsText(secrets));
    return answer.value_or(base::Status::Ok());
  }

  // The next GetCapacity calls answer `answers`, in order; then 1 TiB.
  void ScriptCapacity(std::vector<base::Result<int64_t>> answers) {
    std::lock_guard lock(mu_);
    capacities_.assign(answers.begin(), answers.end());
  }
  // Logged as "GetCapacity <segments of the topology, k=v,...>".
  base::Result<int64_t> GetCapacity(const csi::v1::GetCapacityRequest& request) override {
    std::optional<base::Result<int64_t>> answer;
    {
      std::lock_guard lock(mu_);
      if (!capacities_.empty()) {
        answer = std::move(capacities_.front());
        capacities_.pop_front();
      }
    }
    std::map<std::string, std::string> segments(request.accessible_topology().segments().begin(),
                                                request.accessible_topology().segments().end());
    log_.Add("GetCapacity", SecretsText(segments));
    return answer.value_or(int64_t{1} << 40);
  }

 private:
  CallLog& log_;
  mutable std::mutex mu_;  // guards the maps below
  std::map<std::string, std::deque<CreateAnswer>> creates_;
  std::map<std::string, std::deque<base::Status>> deletes_;
  std::map<std::string, std::vector<csi::v1::CreateVolumeRequest>> requests_;
  std::vector<std::string> migrated_calls_;
  std::deque<base::Result<int64_t>> capacities_;
};

// API errors worded as the API server words them.
inline base::Error ServerError() {
  return base::Error::Http(500, "Internal error occurred: etcdserver: request timed out");
}
inline base::Error PvAlreadyExists(const std::string& name) {
  return base::Error::Http(409, "persistentvolumes \"" + name + "\" already exists");
}
inline base::Error NotFound(const std::string& resource, const std::string& name) {
  return base::Error::Http(404, resource + " \"" + name + "\" not found");
}

inline std::string PatchTypeName(kube::PatchType type) {
  switch (type) {
    case kube::PatchType::kStrategicMerge:
      return "strategic-merge";
    case kube::PatchType::kMerge:
      return "merge";
    case kube::PatchType::kJson:
      return "json";
  }
  return "?";
}

// The provisioner's API calls against an in-memory server: a POSTed PV is
// kept (a second POST of its name is 409 AlreadyExists), PATCH and DELETE
// succeed unless scripted to fail, Secrets are read from what PutSecret
// stored (else 404). Successful writes are reported to the calling thread's
// WriteObserver, as kube::Client reports them. Each call is logged once
// its effect is in place: "POST <pv>",
// "PATCH <pv>: <type> <body>", "DELETE <pv>", "GetSecret <ns>/<name>",
// "FINALIZER <ns>/<claim>: +|-<finalizer>", "GetVolume <pv>", "GetClaim <ns>/<name>",
// "GetSnapshot <ns>/<name>", "GetSnapshotContent <name>",
// "GetAttributesClass <name>" and
// "SNAPSHOT-FINALIZER <ns>/<snapshot>: +|-<finalizer>". Snapshots, contents
// and live PVs are read from what Put* stored (else 404).
class FakeProvisionerApi final : public ProvisionerApi {
 public:
  explicit FakeProvisionerApi(CallLog& log) : log_(log) {}

  void PutSecret(const std::string& ns, const std::string& name, kube::StringMap data) {
    kube::Secret secret;
    secret.metadata.namespace_ = ns;
    secret.metadata.name = name;
    secret.data = std::move(data);
    std::lock_guard lock(mu_);
    secrets_[ns + "/" + name] = std::move(secret);
  }
  void PutSnapshot(kube::VolumeSnapshot snapshot) {
    std::lock_guard lock(mu_);
    snapshots_[snapshot.metadata.namespace_ + "/" + snapshot.metadata.name] = std::move(snapshot);
  }
  void PutSnapshotContent(kube::VolumeSnapshotContent content) {
    std::lock_guard lock(mu_);
    contents_[content.metadata.name] = std::move(content);
  }
  void PutAttributesClass(kube::VolumeAttributesClass vac) {
    std::lock_guard lock(mu_);
    attributes_classes_[vac.metadata.name] = std::move(vac);
  }
  void PutVolume(kube::PersistentVolume volume) {
    std::lock_guard lock(mu_);
    stored_[volume.metadata.name] = std::move(volume);
  }
  // The next `verb` ("POST", "PATCH" or "DELETE") calls on the PV `name`
  // fail with `errors`, in order; likewise "FINALIZER" and
  // "SNAPSHOT-FINALIZER", "UNSELECT" and "SELECT" with "<ns>/<name>".
  void Fail(const std::string& verb, const std::string& name, std::vector<base::Error> errors) {
    std::lock_guard lock(mu_);
    failures_[verb + " " + name].assign(errors.begin(), errors.end());
  }
  // Every PV POSTed, refused ones included, in order.
  std::vector<kube::PersistentVolume> Posted() const {
    std::lock_guard lock(mu_);
    return posted_;
  }
  std::optional<kube::PersistentVolume> Stored(const std::string& name) const {
    std::lock_guard lock(mu_);
    auto it = stored_.find(name);
    if (it == stored_.end()) return std::nullopt;
    return it->second;
  }

  base::Result<kube::PersistentVolume> CreateVolume(const kube::PersistentVolume& volume) override {
    const std::string& name = volume.metadata.name;
    auto answer = Answer([&]() -> base::Result<kube::PersistentVolume> {
      posted_.push_back(volume);
      if (auto error = NextFailure("POST", name)) return *error;
      if (stored_.contains(name)) return PvAlreadyExists(name);
      kube::PersistentVolume written = volume;
      written.metadata.resource_version = NextResourceVersion();
      stored_[name] = written;
      return written;
    });
    log_.Add("POST", name);
    if (answer.ok()) kube::ReportWrite(*answer);
    return answer;
  }

  base::Result<kube::PersistentVolume> PatchVolume(const std::string& name, kube::PatchType type,
                                                   const std::string& patch) override {
    auto answer = Answer([&]() -> base::Result<kube::PersistentVolume> {
      if (auto error = NextFailure("PATCH", name)) return *error;
      kube::PersistentVolume written;
      if (auto it = stored_.find(name); it != stored_.end()) written = it->second;
      written.metadata.name = name;
      written.metadata.resource_version = NextResourceVersion();
      return written;
    });
    log_.Add("PATCH", name, PatchTypeName(type) + " " + patch);
    if (answer.ok()) kube::ReportWrite(*answer);
    return answer;
  }

  base::Status DeleteVolume(const std::string& name) override {
    auto answer = Answer([&]() -> base::Status {
      if (auto error = NextFailure("DELETE", name)) return *error;
      stored_.erase(name);
      return base::Status::Ok();
    });
    log_.Add("DELETE", name);
    return answer;
  }

  base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) override {
    auto answer = Answer([&]() -> base::Result<kube::Secret> {
      auto it = secrets_.find(ns + "/" + name);
      if (it == secrets_.end()) return NotFound("secrets", name);
      return it->second;
    });
    log_.Add("GetSecret", ns + "/" + name);
    return answer;
  }

  // Logged as "FINALIZER <ns>/<name>: +<finalizer>" (or -).
  base::Status SetClaimFinalizer(const std::string& ns, const std::string& name,
                                 std::string_view finalizer, bool add) override {
    return SetFinalizer("FINALIZER", ns + "/" + name, finalizer, add);
  }
  // Logged as "ANNOTATION <ns>/<name>: <key>=<value>" (or "<key>-").
  base::Status SetClaimAnnotation(const std::string& ns, const std::string& name,
                                  std::string_view key,
                                  const std::optional<std::string>& value) override {
    const std::string object = ns + "/" + name;
    auto answer = Answer([&]() -> base::Status {
      if (auto error = NextFailure("ANNOTATION", object)) return *error;
      return base::Status::Ok();
    });
    log_.Add("ANNOTATION", object, std::string(key) + (value ? "=" + *value : "-"));
    return answer;
  }
  base::Status SetSnapshotFinalizer(const std::string& ns, const std::string& name,
                                    std::string_view finalizer, bool add) override {
    return SetFinalizer("SNAPSHOT-FINALIZER", ns + "/" + name, finalizer, add);
  }
  base::Result<kube::PersistentVolume> GetVolume(const std::string& name) override {
    return Read("GetVolume", stored_, name, "persistentvolumes");
  }
  // Answers the claim PutClaim stored, else 404.
  base::Result<kube::PersistentVolumeClaim> GetClaim(const std::string& ns,
                                                     const std::string& name) override {
    return Read("GetClaim", claims_, ns + "/" + name, "persistentvolumeclaims");
  }
  base::Result<kube::VolumeSnapshot> GetSnapshot(const std::string& ns,
                                                 const std::string& name) override {
    return Read("GetSnapshot", snapshots_, ns + "/" + name,
                "volumesnapshots.snapshot.storage.k8s.io");
  }
  base::Result<kube::VolumeSnapshotContent> GetSnapshotContent(const std::string& name) override {
    return Read("GetSnapshotContent", contents_, name,
                "volumesnapshotcontents.snapshot.storage.k8s.io");
  }
  base::Result<kube::VolumeAttributesClass> GetAttributesClass(const std::string& name) override {
    return Read("GetAttributesClass", attributes_classes_, name,
                "volumeattributesclasses.storage.k8s.io");
  }
  // Logged as "UNSELECT <ns>/<name>"; answers the claim PutClaim stored,
  // without the selected-node annotation (nullopt when it had none), or 404.
  base::Result<std::optional<kube::PersistentVolumeClaim>> RemoveSelectedNode(
      const std::string& ns, const std::string& name) override {
    const std::string key = ns + "/" + name;
    auto answer = Answer([&]() -> base::Result<std::optional<kube::PersistentVolumeClaim>> {
      if (auto error = NextFailure("UNSELECT", key)) return *error;
      auto it = claims_.find(key);
      if (it == claims_.end()) return NotFound("persistentvolumeclaims", name);
      if (!it->second.metadata.annotations.erase(kSelectedNodeAnnotation)) {
        return std::optional<kube::PersistentVolumeClaim>();
      }
      it->second.metadata.resource_version = NextResourceVersion();
      return std::optional<kube::PersistentVolumeClaim>(it->second);
    });
    log_.Add("UNSELECT", key);
    return answer;
  }
  // Logged as "SELECT <ns>/<name>: <node>@<resourceVersion>"; a 409 unless
  // the claim PutClaim stored is at `resource_version`, then stores it with
  // the annotation and a new resourceVersion.
  base::Status SelectNode(const std::string& ns, const std::string& name,
                          const std::string& resource_version, const std::string& node) override {
    const std::string key = ns + "/" + name;
    auto answer = Answer([&]() -> base::Status {
      if (auto error = NextFailure("SELECT", key)) return *error;
      auto it = claims_.find(key);
      if (it == claims_.end()) return NotFound("persistentvolumeclaims", name);
      if (it->second.metadata.resource_version != resource_version) {
        return base::Error::Http(409, "the object has been modified");
      }
      it->second.metadata.annotations[kSelectedNodeAnnotation] = node;
      it->second.metadata.resource_version = NextResourceVersion();
      return base::Status::Ok();
    });
    log_.Add("SELECT", key, node + "@" + resource_version);
    return answer;
  }
  void PutClaim(kube::PersistentVolumeClaim claim) {
    std::lock_guard lock(mu_);
    claims_[claim.metadata.namespace_ + "/" + claim.metadata.name] = std::move(claim);
  }

 private:
  // The server's answer, computed under the lock; the call is logged after
  // it, so a test that sees the call sees its effect too.
  template <class Compute>
  std::invoke_result_t<Compute&> Answer(Compute compute) {
    std::lock_guard lock(mu_);
    return compute();
  }
  std::optional<base::Error> NextFailure(const std::string& verb, const std::string& name) {
    return NextAnswer(failures_, verb + " " + name);
  }
  std::string NextResourceVersion() { return std::to_string(++resource_version_); }
  base::Status SetFinalizer(const std::string& verb, const std::string& object,
                            std::string_view finalizer, bool add) {
    auto answer = Answer([&]() -> base::Status {
      if (auto error = NextFailure(verb, object)) return *error;
      return base::Status::Ok();
    });
    log_.Add(verb, object + ": " + (add ? "+" : "-") + std::string(finalizer));
    return answer;
  }
  template <class T>
  base::Result<T> Read(const std::string& verb, const std::map<std::string, T>& objects,
                       const std::string& key, const std::string& resource) {
    auto answer = Answer([&]() -> base::Result<T> {
      auto it = objects.find(key);
      if (it == objects.end()) return NotFound(resource, key.substr(key.find('/') + 1));
      return it->second;
    });
    log_.Add(verb, key);
    return answer;
  }

  CallLog& log_;
  mutable std::mutex mu_;  // guards everything below
  std::map<std::string, std::deque<base::Error>> failures_;
  std::map<std::string, kube::Secret> secrets_;
  std::map<std::string, kube::PersistentVolume> stored_;
  std::map<std::string, kube::VolumeSnapshot> snapshots_;
  std::map<std::string, kube::PersistentVolumeClaim> claims_;
  std::map<std::string, kube::VolumeSnapshotContent> contents_;
  std::map<std::string, kube::VolumeAttributesClass> attributes_classes_;
  std::vector<kube::PersistentVolume> posted_;
  int64_t resource_version_ = 100;
};

inline std::string ClaimKeyOf(const kube::PersistentVolumeClaim& claim) {
  return claim.metadata.namespace_ + "/" + claim.metadata.name;
}

// Logs "Provisioning <claim>", "LeftToPopulator <claim>",
// "Failed <claim>: <error>", "Infeasible <claim>: <error>" and
// "Succeeded <claim>: <pv>"; the words around them are RecordedClaimEvents'.
class FakeClaimEvents final : public ClaimEvents {
 public:
  explicit FakeClaimEvents(CallLog& log) : log_(log) {}

  void Provisioning(const kube::PersistentVolumeClaim& claim) override {
    log_.Add("Provisioning", ClaimKeyOf(claim));
  }
  void LeftToPopulator(const kube::PersistentVolumeClaim& claim) override {
    log_.Add("LeftToPopulator", ClaimKeyOf(claim));
  }
  void Failed(const kube::PersistentVolumeClaim& claim, const std::string& error) override {
    log_.Add("Failed", ClaimKeyOf(claim), error);
  }
  void Infeasible(const kube::PersistentVolumeClaim& claim, const std::string& error) override {
    log_.Add("Infeasible", ClaimKeyOf(claim), error);
  }
  void Succeeded(const kube::PersistentVolumeClaim& claim, const std::string& volume) override {
    log_.Add("Succeeded", ClaimKeyOf(claim), volume);
  }

 private:
  CallLog& log_;
};

// Logs "DeleteFailed <pv>: <error>" and "WaitingForDetach <pv>: <node>".
class FakeVolumeEvents final : public VolumeEvents {
 public:
  explicit FakeVolumeEvents(CallLog& log) : log_(log) {}

  void DeleteFailed(const kube::PersistentVolume& volume, const std::string& error) override {
    log_.Add("DeleteFailed", volume.metadata.name, error);
  }
  void WaitingForDetach(const kube::PersistentVolume& volume, const std::string& node) override {
    log_.Add("WaitingForDetach", volume.metadata.name, node);
  }

 private:
  CallLog& log_;
};

// The Events an EventRecorder created, as
// "<source> <type> <reason> <kind>/<name>: <message>".
class RecordingEventApi final : public kube::EventApi {
 public:
  base::Status Create(const kube::Event& event) override {
    std::lock_guard lock(mu_);
    created_.push_back(event.source.component + " " + event.type + " " + event.reason + " " +
                       event.involved_object.kind.str() + "/" + event.involved_object.name + ": " +
                       event.message);
    return base::Status::Ok();
  }
  base::Status Patch(std::string_view, std::string_view, const std::string&) override {
    ADD_FAILURE() << "an Event was repeated";
    return base::Status::Ok();
  }
  std::vector<std::string> created() const {
    std::lock_guard lock(mu_);
    return created_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> created_;  // guarded by mu_
};

// A class of the driver: Immediate binding, reclaim policy Delete.
inline kube::StorageClass DriverClass(const std::string& name = "fast",
                                      const std::string& uid = "class-uid-1") {
  kube::StorageClass storage_class;
  storage_class.metadata.name = name;
  storage_class.metadata.uid = uid;
  storage_class.metadata.resource_version = "1";
  storage_class.provisioner = std::string(kDriver);
  storage_class.reclaim_policy = "Delete";
  return storage_class;
}

// A claim KCM has handed to the driver: storage-provisioner annotation,
// class `class_name`, ReadWriteOnce, 1Gi; its volume is "pvc-<uid>".
inline kube::PersistentVolumeClaim PendingClaim(const std::string& name, const std::string& uid,
                                                const std::string& class_name = "fast") {
  kube::PersistentVolumeClaim claim;
  claim.metadata.name = name;
  claim.metadata.namespace_ = std::string(kClaimNamespace);
  claim.metadata.uid = uid;
  claim.metadata.resource_version = "1";
  claim.metadata.annotations[kStorageProvisionerAnnotation] = std::string(kDriver);
  claim.spec.access_modes = {"ReadWriteOnce"};
  claim.spec.requests_storage = "1Gi";
  claim.spec.storage_class_name = class_name;
  claim.status.phase = "Pending";
  return claim;
}

inline std::string VolumeNameFor(const std::string& uid) { return "pvc-" + uid; }
inline std::string VolumeIdOf(const std::string& pv_name) { return "vol-" + pv_name; }

// A PV the driver provisioned for apps/data, with volume "vol-<name>", in
// `phase` with `policy`, of class "fast"; no finalizer.
inline kube::PersistentVolume DriverVolume(const std::string& name, const std::string& phase,
                                           const std::string& policy = "Delete") {
  kube::PersistentVolume volume;
  volume.metadata.name = name;
  volume.metadata.resource_version = "1";
  volume.metadata.annotations[kProvisionedByAnnotation] = std::string(kDriver);
  volume.spec.persistent_volume_reclaim_policy = policy;
  volume.spec.storage_class_name = "fast";
  volume.spec.capacity_storage = "1Gi";
  volume.spec.access_modes = {"ReadWriteOnce"};
  volume.spec.claim_ref = kube::ClaimReference{
      .namespace_ = std::string(kClaimNamespace), .name = "data", .uid = "uid-data"};
  kube::CSIPersistentVolumeSource csi;
  csi.driver = kDriver;
  csi.volume_handle = VolumeIdOf(name);
  volume.spec.source = csi;
  volume.status.phase = phase;
  return volume;
}

inline kube::PersistentVolume WithOurFinalizer(kube::PersistentVolume volume) {
  volume.metadata.finalizers.emplace_back(kVolumeFinalizer);
  return volume;
}

// Data sources (§3.7). apps/snap-1: ready, bound to content-1 (handle
// "snap-handle-1", restoreSize 1Gi), of the driver.
inline kube::VolumeSnapshot ReadySnapshot() {
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.namespace_ = "apps";
  snapshot.metadata.name = "snap-1";
  snapshot.metadata.uid = "snap-uid";
  snapshot.status = kube::VolumeSnapshotStatus{.bound_volume_snapshot_content_name = "content-1",
                                               .ready_to_use = true,
                                               .restore_size = "1Gi"};
  return snapshot;
}

inline kube::VolumeSnapshotContent BoundContent() {
  kube::VolumeSnapshotContent content;
  content.metadata.name = "content-1";
  content.spec.volume_snapshot_ref.namespace_ = "apps";
  content.spec.volume_snapshot_ref.name = "snap-1";
  content.spec.volume_snapshot_ref.uid = "snap-uid";
  content.spec.driver = kDriver;
  content.status = kube::VolumeSnapshotContentStatus{.snapshot_handle = "snap-handle-1"};
  return content;
}

// apps/src, Bound to PV pv-src (CSI, our driver, bound back, 1Gi).
inline kube::PersistentVolumeClaim SourceClaim() {
  kube::PersistentVolumeClaim claim = PendingClaim("src", "uid-src");
  claim.spec.volume_name = "pv-src";
  claim.status.phase = "Bound";
  return claim;
}

inline kube::PersistentVolume SourceVolume() {
  kube::PersistentVolume volume = DriverVolume("pv-src", "Bound");
  volume.spec.claim_ref =
      kube::ClaimReference{.namespace_ = "apps", .name = "src", .uid = "uid-src"};
  return volume;
}

// The fixture both controller tests build on: fake sources for the kinds
// both controllers read, the fakes above on one log, a FakeClock, and the
// thread that runs the informers and the controller under test.
class World : public ::testing::Test {
 protected:
  using TimePoint = base::Clock::TimePoint;
  static constexpr TimePoint kStart{};

  void TearDown() override { StopRunning(); }

  // Makes the informer set over the fake sources given with UseSource.
  kube::InformerSet& MakeInformers() {
    informers_.emplace(kube::ReflectorOptions{}, clock_);
    informers_->UseSource(classes_);
    informers_->UseSource(volumes_);
    return *informers_;
  }
  // Starts the informers and `controller` on a thread of their own, until
  // StopRunning.
  template <class Controller>
  void RunController(Controller& controller) {
    run_ = std::jthread([this, &controller](std::stop_token stop) {
      kube::RunWithInformers(*informers_, stop, controller);
    });
  }
  void StopRunning() {
    if (!run_.joinable()) return;
    run_.request_stop();
    run_.join();
  }

  // Waits until the only timer set is for `deadline`: the reconcile that
  // asked to come back then has ended.
  ::testing::AssertionResult AwaitTimer(TimePoint deadline) {
    if (clock_.AwaitSleeperDeadlines({deadline}, testsupport::kHandOffTimeout)) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "no timer for " << (deadline - kStart) / std::chrono::milliseconds(1) << "ms";
  }
  // Waits for the timer of `deadline`, then moves the clock there.
  void AdvanceToTimer(TimePoint deadline) {
    ASSERT_TRUE(AwaitTimer(deadline));
    clock_.Advance(deadline - clock_.Now());
  }
  // Moves the clock to `when`, whatever timers fire on the way.
  void AdvanceTo(TimePoint when) { clock_.Advance(when - clock_.Now()); }

  // Sends `object` as a watch event of `source` and waits until its
  // informer has handled it.
  template <class T>
  void Send(testsupport::FakeListerWatcher<T>& source, kube::WatchEventType type, const T& object) {
    source.Send(type, object);
    ASSERT_TRUE(source.AwaitDelivered(++sent_[&source]));
  }

  base::FakeClock clock_;
  CallLog log_{clock_};
  FakeVolumeDriver driver_{log_};
  FakeProvisionerApi api_{log_};
  testsupport::FakeListerWatcher<kube::StorageClass> classes_;
  testsupport::FakeListerWatcher<kube::PersistentVolume> volumes_;
  std::optional<kube::InformerSet> informers_;
  std::map<const void*, int> sent_;  // watch events sent, by source
  std::jthread run_;
};

}  // namespace provisioner::fakes
