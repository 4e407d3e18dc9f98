// Fakes for the content handler tests: a SnapshotApi that keeps the contents
// the way the API server does (testsupport::FakeObjectServer) and records
// every call as (verb, resource, name, subresource, patch type, body); a
// SnapshotDriver that records requests and answers from per-method scripts;
// ContentEvents that records what is reported. Calls are strings so a mismatch prints readably.
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

  // Stores `content` as the API server's copy.
  void Put(const kube::VolumeSnapshotContent& content) {
    std::lock_guard lock(mu_);
    server_.Put(content);
  }
  void AddSecret(kube::Secret secret) {
    std::lock_guard lock(mu_);
    secrets_[secret.metadata.namespace_ + "/" + secret.metadata.name] = std::move(secret);
  }
  // Another writer changed the content: only its resourceVersion moves.
  void BumpResourceVersion(const std::string& name) {
    std::lock_guard lock(mu_);
    server_.BumpResourceVersion<kube::VolumeSnapshotContent>("", name);
  }
  // The API server's copy; nullopt once the content is gone.
  std::optional<kube::VolumeSnapshotContent> Stored(const std::string& name) const {
    std::lock_guard lock(mu_);
    return server_.Stored<kube::VolumeSnapshotContent>("", name);
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
    std::lock_guard lock(mu_);
    ApiCall call{"patch",
                 "volumesnapshotcontents",
                 name,
                 status ? "status" : "",
                 type == kube::PatchType::kJson ? "json" : "merge",
                 patch};
    if (auto error = log_.Record(call)) return *error;
    return server_.Patch<kube::VolumeSnapshotContent>("", name, type, patch, status);
  }

  base::Result<kube::VolumeSnapshotContent> GetContent(const std::string& name) override {
    std::lock_guard lock(mu_);
    if (auto error = log_.Record(testing::GetContent(name))) return *error;
    return server_.Get<kube::VolumeSnapshotContent>("", name);
  }

  base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) override {
    std::lock_guard lock(mu_);
    if (auto error = log_.Record(testing::GetSecret(ns, name))) return *error;
    auto it = secrets_.find(ns + "/" + name);
    if (it == secrets_.end()) return base::Error::Http(404, "secrets \"" + name + "\" not found");
    return it->second;
  }

 private:
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

class FakeSnapshotDriver final : public SnapshotDriver {
 public:
  explicit FakeSnapshotDriver(DriverScript script = {}) : script_(std::move(script)) {}

  void SetScript(DriverScript script) {
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

  base::Result<DriverSnapshot> CreateSnapshot(const CreateSnapshotRequest& request) override {
    return Answer(CreateCall(request), script_.create);
  }
  base::Status DeleteSnapshot(const std::string& snapshot_id, const Secrets& secrets) override {
    return Answer(DeleteCall(snapshot_id, secrets), script_.remove);
  }
  base::Result<std::optional<DriverSnapshot>> ListSnapshot(const std::string& snapshot_id,
                                                           const Secrets& secrets) override {
    return Answer(ListCall(snapshot_id, secrets), script_.list);
  }

 private:
  template <class T>
  T Answer(std::string call, std::deque<T>& answers) {
    std::lock_guard lock(mu_);
    calls_.push_back(call);
    if (answers.empty()) {
      ADD_FAILURE() << "unscripted CSI call " << call;
      return base::Error("unscripted CSI call");
    }
    T answer = std::move(answers.front());
    answers.pop_front();
    return answer;
  }

  mutable std::mutex mu_;
  DriverScript script_;             // guarded by mu_
  std::vector<std::string> calls_;  // guarded by mu_
};

// Each report as "<reason> <content>: <message>".
class FakeContentEvents final : public ContentEvents {
 public:
  void CreationFailed(const kube::VolumeSnapshotContent& content,
                      const std::string& message) override {
    Record(kSnapshotCreationFailedReason, content, message);
  }
  void CheckAndUpdateFailed(const kube::VolumeSnapshotContent& content,
                            const std::string& message) override {
    Record(kSnapshotContentCheckAndUpdateFailedReason, content, message);
  }
  void DeleteFailed(const kube::VolumeSnapshotContent& content, std::string_view message) override {
    Record(kSnapshotDeleteErrorReason, content, message);
  }
  std::vector<std::string> events() const {
    std::lock_guard lock(mu_);
    return events_;
  }

 private:
  void Record(std::string_view reason, const kube::VolumeSnapshotContent& content,
              std::string_view message) {
    std::lock_guard lock(mu_);
    events_.push_back(std::string(reason) + " " + content.metadata.name + ": " +
                      std::string(message));
  }

  mutable std::mutex mu_;
  std::vector<std::string> events_;  // guarded by mu_
};

}  // namespace snapshotter::testing
