// Fakes for the content handler tests: a SnapshotApi that keeps the contents
// of both kinds the way the API server does (testsupport::FakeObjectServer)
// and records every call as (verb, resource, name, subresource, patch type,
// body); a SnapshotDriver that records requests and answers from per-method
// scripts (the group driver's are in group_fakes.h); ContentEvents of either
// kind that record what is reported. Calls are strings so a mismatch prints readably.
#pragma once

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "snapshotter/content_events.h"
#include "snapshotter/snapshot_api.h"
#include "snapshotter/snapshot_driver.h"
#include "tests/support/api_call_log.h"
#include "tests/support/fake_object_server.h"

namespace snapshotter::testing {

using testsupport::ApiCall;
using testsupport::ApiFailure;

inline ApiCall PatchContent(std::string name, std::string body) {
  return {"patch", "volumesnapshotcontents", std::move(name), "", "json", std::move(body)};
}
inline ApiCall PatchContentStatus(std::string name, std::string body) {
  return {"patch", "volumesnapshotcontents", std::move(name), "status", "merge", std::move(body)};
}
inline ApiCall GetContent(std::string name) {
  return {"get", "volumesnapshotcontents", std::move(name), "", "", ""};
}
inline ApiCall GetSecret(const std::string& ns, const std::string& name) {
  return {"get", "secrets", ns + "/" + name, "", "", ""};
}

class FakeSnapshotApi final : public SnapshotApi {
 public:
  explicit FakeSnapshotApi(std::vector<ApiFailure> failures = {}) : log_(std::move(failures)) {}

  // Stores `content` (either kind) as the API server's copy.
  template <class Content>
  void Put(const Content& content) {
    std::lock_guard lock(mu_);
    server_.Put(content);
  }
  void AddSecret(kube::Secret secret) {
    std::lock_guard lock(mu_);
    secrets_[secret.metadata.namespace_ + "/" + secret.metadata.name] = std::move(secret);
  }
  // Another writer changed the content: only its resourceVersion moves.
  template <class Content = kube::VolumeSnapshotContent>
  void BumpResourceVersion(const std::string& name) {
    std::lock_guard lock(mu_);
    server_.BumpResourceVersion<Content>("", name);
  }
  // The API server's copy; nullopt once the content is gone.
  template <class Content = kube::VolumeSnapshotContent>
  std::optional<Content> Stored(const std::string& name) const {
    std::lock_guard lock(mu_);
    return server_.Stored<Content>("", name);
  }

  std::vector<ApiCall> calls() const {
    std::lock_guard lock(mu_);
    return log_.calls();
  }
  void ClearCalls() {
    std::lock_guard lock(mu_);
    log_.Clear();
  }

  base::Result<kube::VolumeSnapshotContent> PatchContent(const std::string& name,
                                                         kube::PatchType type,
                                                         const std::string& patch,
                                                         bool status) override {
    return PatchAs<kube::VolumeSnapshotContent>(name, type, patch, status);
  }
  base::Result<kube::VolumeSnapshotContent> GetContent(const std::string& name) override {
    return GetAs<kube::VolumeSnapshotContent>(name);
  }
  base::Result<kube::VolumeGroupSnapshotContent> PatchGroupContent(const std::string& name,
                                                                   kube::PatchType type,
                                                                   const std::string& patch,
                                                                   bool status) override {
    return PatchAs<kube::VolumeGroupSnapshotContent>(name, type, patch, status);
  }
  base::Result<kube::VolumeGroupSnapshotContent> GetGroupContent(const std::string& name) override {
    return GetAs<kube::VolumeGroupSnapshotContent>(name);
  }

  base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) override {
    std::lock_guard lock(mu_);
    if (auto error = log_.Record(testing::GetSecret(ns, name))) return *error;
    auto it = secrets_.find(ns + "/" + name);
    if (it == secrets_.end()) return base::Error::Http(404, "secrets \"" + name + "\" not found");
    return it->second;
  }

 private:
  template <class Content>
  base::Result<Content> PatchAs(const std::string& name, kube::PatchType type,
                                const std::string& patch, bool status) {
    std::lock_guard lock(mu_);
    ApiCall call{"patch",
                 std::string(Content::kFacts.plural),
                 name,
                 status ? "status" : "",
                 type == kube::PatchType::kJson ? "json" : "merge",
                 patch};
    if (auto error = log_.Record(call)) return *error;
    return server_.Patch<Content>("", name, type, patch, status);
  }
  template <class Content>
  base::Result<Content> GetAs(const std::string& name) {
    std::lock_guard lock(mu_);
    ApiCall call{"get", std::string(Content::kFacts.plural), name, "", "", ""};
    if (auto error = log_.Record(call)) return *error;
    return server_.Get<Content>("", name);
  }

  mutable std::mutex mu_;
  testsupport::ApiCallLog log_;                  // guarded by mu_
  testsupport::FakeObjectServer server_;         // guarded by mu_
  std::map<std::string, kube::Secret> secrets_;  // guarded by mu_
};

// CSI calls as compact JSON: method, then the request's fields.
inline std::string CreateCall(const CreateSnapshotRequest& r) {
  return nlohmann::json{{"method", "CreateSnapshot"},
                        {"name", r.name},
                        {"source_volume_id", r.source_volume_id},
                        {"parameters", r.parameters},
                        {"secrets", r.secrets}}
      .dump();
}
inline std::string DeleteCall(const std::string& snapshot_id, const Secrets& secrets = {}) {
  return nlohmann::json{
      {"method", "DeleteSnapshot"}, {"snapshot_id", snapshot_id}, {"secrets", secrets}}
      .dump();
}
inline std::string ListCall(const std::string& snapshot_id, const Secrets& secrets = {}) {
  return nlohmann::json{
      {"method", "ListSnapshot"}, {"snapshot_id", snapshot_id}, {"secrets", secrets}}
      .dump();
}

// Answers in order, one per call; a call beyond the script fails the test.
struct DriverScript {
  std::deque<base::Result<DriverSnapshot>> create = {};
  std::deque<base::Status> remove = {};
  std::deque<base::Result<std::optional<DriverSnapshot>>> list = {};
};

// A scripted CSI driver's bookkeeping: the calls made, and the answers of
// `Script` handed out in order, one per call; a call beyond the script fails
// the test.
template <class ScriptT>
class ScriptedDriver {
 public:
  using Script = ScriptT;

  explicit ScriptedDriver(Script script) : script_(std::move(script)) {}

  void SetScript(Script script) {
    std::lock_guard lock(mu_);
    script_ = std::move(script);
  }
  std::vector<std::string> calls() const {
    std::lock_guard lock(mu_);
    return calls_;
  }
  void ClearCalls() {
    std::lock_guard lock(mu_);
    calls_.clear();
  }

 protected:
  template <class T>
  T Answer(std::string call, std::deque<T> Script::*answers) {
    std::lock_guard lock(mu_);
    calls_.push_back(call);
    std::deque<T>& left = script_.*answers;
    if (left.empty()) {
      ADD_FAILURE() << "unscripted CSI call " << call;
      return base::Error("unscripted CSI call");
    }
    T answer = std::move(left.front());
    left.pop_front();
    return answer;
  }

 private:
  mutable std::mutex mu_;
  Script script_;                   // guarded by mu_
  std::vector<std::string> calls_;  // guarded by mu_
};

class FakeSnapshotDriver final : public SnapshotDriver, public ScriptedDriver<DriverScript> {
 public:
  explicit FakeSnapshotDriver(DriverScript script = {}) : ScriptedDriver(std::move(script)) {}

  base::Result<DriverSnapshot> CreateSnapshot(const CreateSnapshotRequest& request) override {
    return Answer(CreateCall(request), &DriverScript::create);
  }
  base::Status DeleteSnapshot(const std::string& snapshot_id, const Secrets& secrets) override {
    return Answer(DeleteCall(snapshot_id, secrets), &DriverScript::remove);
  }
  base::Result<std::optional<DriverSnapshot>> ListSnapshot(const std::string& snapshot_id,
                                                           const Secrets& secrets) override {
    return Answer(ListCall(snapshot_id, secrets), &DriverScript::list);
  }
};

// Each report as "<reason> <content>: <message>", with the kind's reasons.
template <class Content>
class FakeContentEventsOf final : public ContentEventsOf<Content> {
 public:
  void CreationFailed(const Content& content, const std::string& message) override {
    Record(EventReasonsFor(content).creation_failed, content, message);
  }
  void CheckAndUpdateFailed(const Content& content, const std::string& message) override {
    Record(EventReasonsFor(content).check_and_update_failed, content, message);
  }
  void DeleteFailed(const Content& content, std::string_view message) override {
    Record(EventReasonsFor(content).delete_error, content, message);
  }
  std::vector<std::string> events() const {
    std::lock_guard lock(mu_);
    return events_;
  }

 private:
  void Record(std::string_view reason, const Content& content, std::string_view message) {
    std::lock_guard lock(mu_);
    events_.push_back(std::string(reason) + " " + content.metadata.name + ": " +
                      std::string(message));
  }

  mutable std::mutex mu_;
  std::vector<std::string> events_;  // guarded by mu_
};

using FakeContentEvents = FakeContentEventsOf<kube::VolumeSnapshotContent>;
using FakeGroupContentEvents = FakeContentEventsOf<kube::VolumeGroupSnapshotContent>;

}  // namespace snapshotter::testing
