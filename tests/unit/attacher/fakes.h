// Fakes for the handler tests: a KubernetesApi that records every call as
// (verb, resource, name, subresource, patch type, body) and fails the calls a
// test scripts, a VolumePublisher that records requests and answers from a script, and
// AttachmentEvents that records the failures reported. Calls are described as strings so a
// mismatch prints readably. (Namespace handler_testing: the controller tests own
// attacher::testing.)
#pragma once

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "attacher/attachment_events.h"
#include "attacher/kubernetes_api.h"
#include "attacher/volume_publisher.h"
#include "tests/support/api_call_log.h"

namespace attacher::handler_testing {

using testsupport::ApiCall;
using testsupport::ApiFailure;

inline ApiCall PatchVa(std::string name, std::string type, std::string body) {
  return {"patch", "volumeattachments", std::move(name), "", std::move(type), std::move(body)};
}
inline ApiCall PatchVaStatus(std::string name, std::string body) {
  return {"patch", "volumeattachments", std::move(name), "status", "merge", std::move(body)};
}
inline ApiCall PatchPv(std::string name, std::string body) {
  return {"patch", "persistentvolumes", std::move(name), "", "strategic", std::move(body)};
}
inline ApiCall GetSecret(std::string ns, std::string name) {
  return {"get", "secrets", ns + "/" + name, "", "", ""};
}

class FakeKubernetesApi final : public KubernetesApi {
 public:
  explicit FakeKubernetesApi(std::vector<ApiFailure> failures = {}) : log_(std::move(failures)) {}

  // GetSecret answers with this Secret; others are 404.
  void AddSecret(kube::Secret secret) {
    std::string key = secret.metadata.namespace_ + "/" + secret.metadata.name;
    secrets_[key] = std::move(secret);
  }

  std::vector<ApiCall> calls() const {
    std::lock_guard lock(mu_);
    return log_.calls();
  }

  base::Result<kube::VolumeAttachment> PatchVolumeAttachment(const std::string& name,
                                                             kube::PatchType type,
                                                             const std::string& patch,
                                                             bool status) override {
    ApiCall call{"patch", "volumeattachments", name, status ? "status" : "", TypeName(type), patch};
    if (auto error = Record(call)) return *error;
    std::lock_guard lock(mu_);
    kube::VolumeAttachment va = va_reply_.value_or(kube::VolumeAttachment{});
    va.metadata.name = name;
    return va;
  }

  // VolumeAttachment patches answer with this object (name replaced), e.g. one
  // the API server deleted because its last finalizer went; default: an empty
  // object.
  void SetVolumeAttachmentReply(kube::VolumeAttachment va) {
    std::lock_guard lock(mu_);
    va_reply_ = std::move(va);
  }

  base::Result<kube::PersistentVolume> PatchPersistentVolume(const std::string& name,
                                                             kube::PatchType type,
                                                             const std::string& patch) override {
    if (auto error = Record({"patch", "persistentvolumes", name, "", TypeName(type), patch})) {
      return *error;
    }
    kube::PersistentVolume pv;
    pv.metadata.name = name;
    return pv;
  }

  base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) override {
    if (auto error = Record(handler_testing::GetSecret(ns, name))) return *error;
    auto it = secrets_.find(ns + "/" + name);
    if (it == secrets_.end()) return base::Error::Http(404, "secrets \"" + name + "\" not found");
    return it->second;
  }

 private:
  static std::string TypeName(kube::PatchType type) {
    switch (type) {
      case kube::PatchType::kMerge:
        return "merge";
      case kube::PatchType::kJson:
        return "json";
      case kube::PatchType::kStrategicMerge:
        return "strategic";
    }
    return "?";
  }

  std::optional<base::Error> Record(const ApiCall& call) {
    std::lock_guard lock(mu_);
    return log_.Record(call);
  }

  testsupport::ApiCallLog log_;                  // guarded by mu_
  std::map<std::string, kube::Secret> secrets_;  // set before use
  mutable std::mutex mu_;
  std::optional<kube::VolumeAttachment> va_reply_;  // guarded by mu_
};

using CsiCall = std::variant<PublishRequest, UnpublishRequest>;

// A CSI call as compact JSON: method, then the request's fields.
inline std::string Describe(const CsiCall& call) {
  nlohmann::json j;
  if (const auto* p = std::get_if<PublishRequest>(&call)) {
    const VolumeCapability& c = p->capability;
    j = {{"method", "Publish"},
         {"volume_id", p->volume_id},
         {"node_id", p->node_id},
         {"readonly", p->readonly},
         {"block", c.block},
         {"fs_type", c.fs_type},
         {"mount_flags", c.mount_flags},
         {"access_mode", static_cast<int>(c.access_mode)},
         {"secrets", p->secrets},
         {"volume_context", p->volume_context},
         {"migrated", p->migrated}};
  } else {
    const auto& u = std::get<UnpublishRequest>(call);
    j = {{"method", "Unpublish"},
         {"volume_id", u.volume_id},
         {"node_id", u.node_id},
         {"secrets", u.secrets},
         {"migrated", u.migrated}};
  }
  return j.dump();
}

struct PublisherScript {
  std::map<std::string, std::string> publish_context = {};
  std::optional<base::Error> publish_error = {};
  std::optional<base::Error> unpublish_error = {};
};

class FakeVolumePublisher final : public VolumePublisher {
 public:
  explicit FakeVolumePublisher(PublisherScript script = {}) : script_(std::move(script)) {}

  void SetScript(PublisherScript script) {
    std::lock_guard lock(mu_);
    script_ = std::move(script);
  }
  std::vector<std::string> calls() const {
    std::lock_guard lock(mu_);
    return calls_;
  }

  base::Result<std::map<std::string, std::string>> Publish(const PublishRequest& r) override {
    PublisherScript script = Record(r);
    if (script.publish_error) return *script.publish_error;
    return script.publish_context;
  }
  base::Status Unpublish(const UnpublishRequest& r) override {
    PublisherScript script = Record(r);
    if (script.unpublish_error) return *script.unpublish_error;
    return base::Status::Ok();
  }

 private:
  // Records the call; returns the script that answers it.
  PublisherScript Record(const CsiCall& call) {
    std::lock_guard lock(mu_);
    calls_.push_back(Describe(call));
    return script_;
  }

  mutable std::mutex mu_;
  PublisherScript script_;          // guarded by mu_
  std::vector<std::string> calls_;  // Describe() of each call; guarded by mu_
};

// Each reported failure as "<reason> <VA name>: <message>".
class FakeAttachmentEvents final : public AttachmentEvents {
 public:
  void AttachFailed(const kube::VolumeAttachment& va, const std::string& message) override {
    Record(kAttachFailedReason, va, message);
  }
  void DetachFailed(const kube::VolumeAttachment& va, const std::string& message) override {
    Record(kDetachFailedReason, va, message);
  }
  std::vector<std::string> events() const {
    std::lock_guard lock(mu_);
    return events_;
  }

 private:
  void Record(std::string_view reason, const kube::VolumeAttachment& va,
              const std::string& message) {
    std::lock_guard lock(mu_);
    events_.push_back(std::string(reason) + " " + va.metadata.name + ": " + message);
  }

  mutable std::mutex mu_;
  std::vector<std::string> events_;  // guarded by mu_
};

}  // namespace attacher::handler_testing
