// The fakes the resizer's controller tests share: a log of every API call,
// driver call and Event in order (CallLog), an API that records its patches
// and answers with the claim the test made (RecordingApi), Events written to
// the log (LoggedEvents), an expander and a modifier that log their calls and
// answer as told, and a claim bound to its CSI PV.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/core/v1/secret.h"
#include "resizer/resize_events.h"
#include "resizer/resizer_api.h"
#include "resizer/volume_expander.h"
#include "resizer/volume_modifier.h"

namespace resizer::testing {

using namespace std::chrono_literals;

inline constexpr char kResizeDriver[] = "resize.csi.example.com";
inline constexpr int64_t kGiB = int64_t{1} << 30;

// The calls and Events of a run, in order, as one line each.
class CallLog {
 public:
  void Add(std::string line) {
    std::lock_guard lock(mu_);
    lines_.push_back(std::move(line));
    cv_.notify_all();
  }
  // Waits up to 10 s for a line containing `needle`.
  bool Await(const std::string& needle) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 10s, [&] { return IndexOfLocked(needle) >= 0; });
  }
  // The position of the first line containing `needle`, -1 if none.
  int IndexOf(const std::string& needle) {
    std::lock_guard lock(mu_);
    return IndexOfLocked(needle);
  }
  std::string Dump() {
    std::lock_guard lock(mu_);
    std::string all;
    for (const std::string& line : lines_) all += line + "\n";
    return all;
  }

 private:
  int IndexOfLocked(const std::string& needle) const {
    for (size_t i = 0; i < lines_.size(); ++i) {
      if (lines_[i].find(needle) != std::string::npos) return static_cast<int>(i);
    }
    return -1;
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> lines_;
};

// Answers a status patch with the claim as the test made it, at
// resourceVersion "written" (the patch itself is only logged).
class RecordingApi final : public ResizerApi {
 public:
  explicit RecordingApi(CallLog& log) : log_(log) {}
  void Remember(const kube::PersistentVolumeClaim& claim) {
    std::lock_guard lock(mu_);
    claims_[claim.metadata.name] = claim;
  }
  base::Result<kube::PersistentVolumeClaim> PatchClaimStatus(const std::string& ns,
                                                             const std::string& name,
                                                             const std::string& patch) override {
    log_.Add("PATCH-STATUS " + ns + "/" + name + " " + patch);
    std::lock_guard lock(mu_);
    kube::PersistentVolumeClaim written = claims_[name];
    written.metadata.resource_version = "written";
    return written;
  }
  base::Result<kube::PersistentVolume> PatchVolume(const std::string& name,
                                                   const std::string& patch) override {
    log_.Add("PATCH-PV " + name + " " + patch);
    return kube::PersistentVolume();
  }
  base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) override {
    log_.Add("GET-SECRET " + ns + "/" + name);
    std::lock_guard lock(mu_);
    auto it = secrets_.find(ns + "/" + name);
    if (it == secrets_.end()) return base::Error("not found");
    return it->second;
  }
  void AddSecret(const std::string& ns, const std::string& name, kube::StringMap data) {
    std::lock_guard lock(mu_);
    kube::Secret secret;
    secret.metadata.namespace_ = ns;
    secret.metadata.name = name;
    secret.data = std::move(data);
    secrets_[ns + "/" + name] = std::move(secret);
  }

 private:
  CallLog& log_;
  std::mutex mu_;
  std::map<std::string, kube::PersistentVolumeClaim> claims_;  // guarded by mu_
  std::map<std::string, kube::Secret> secrets_;                // guarded by mu_
};

class LoggedEvents final : public ResizeEvents {
 public:
  explicit LoggedEvents(CallLog& log) : log_(log) {}
  void Normal(const kube::PersistentVolumeClaim& claim, std::string_view reason,
              std::string_view message) override {
    log_.Add("EVENT Normal " + claim.metadata.name + " " + std::string(reason) + ": " +
             std::string(message));
  }
  void Warning(const kube::PersistentVolumeClaim& claim, std::string_view reason,
               std::string_view message) override {
    log_.Add("EVENT Warning " + claim.metadata.name + " " + std::string(reason) + ": " +
             std::string(message));
  }

 private:
  CallLog& log_;
};

// Logs "EXPAND <pv> <bytes>" and answers as told (2Gi by default). While
// held, a call waits after logging until Release().
class ScriptedExpander final : public VolumeExpander {
 public:
  explicit ScriptedExpander(CallLog& log) : log_(log) {}
  bool ExpandsInController() const override { return true; }
  base::Result<Expansion> Expand(const kube::PersistentVolume& volume, int64_t bytes,
                                 const kube::StringMap&) override {
    log_.Add("EXPAND " + volume.metadata.name + " " + std::to_string(bytes));
    std::unique_lock lock(mu_);
    released_.wait(lock, [this] { return !held_; });
    return answer_;
  }
  void Answer(base::Result<Expansion> answer) {
    std::lock_guard lock(mu_);
    answer_ = std::move(answer);
  }
  void Hold() {
    std::lock_guard lock(mu_);
    held_ = true;
  }
  void Release() {
    std::lock_guard lock(mu_);
    held_ = false;
    released_.notify_all();
  }

 private:
  CallLog& log_;
  std::mutex mu_;
  std::condition_variable released_;
  bool held_ = false;                                                       // guarded by mu_
  base::Result<Expansion> answer_ = Expansion{.capacity_bytes = 2 * kGiB};  // guarded by mu_
};

// Logs "MODIFY <pv> params=k=v,... secrets=k,..." and answers as told.
class ScriptedModifier final : public VolumeModifier {
 public:
  explicit ScriptedModifier(CallLog& log) : log_(log) {}
  base::Status Modify(const kube::PersistentVolume& volume, const kube::StringMap& parameters,
                      const kube::StringMap& secrets) override {
    std::string line = "MODIFY " + volume.metadata.name + " params=";
    for (const auto& [key, value] : parameters) line += key + "=" + value + ",";
    line += " secrets=";
    for (const auto& [key, value] : secrets) line += key + ",";
    log_.Add(line);
    std::lock_guard lock(mu_);
    if (answers_.empty()) return base::Status::Ok();
    base::Status answer = answers_.front();
    answers_.pop_front();
    return answer;
  }
  // The answers of the next calls, in order; OK after them.
  void Answer(base::Status answer) {
    std::lock_guard lock(mu_);
    answers_.push_back(std::move(answer));
  }

 private:
  CallLog& log_;
  std::mutex mu_;
  std::deque<base::Status> answers_;  // guarded by mu_
};

// A claim bound to "pv-<name>", 1Gi, asking for `request`.
inline kube::PersistentVolumeClaim BoundClaim(const std::string& name,
                                              const std::string& request = "2Gi") {
  kube::PersistentVolumeClaim claim;
  claim.metadata.namespace_ = "ns";
  claim.metadata.name = name;
  claim.metadata.uid = kube::Uid("uid-" + name);
  claim.metadata.resource_version = "1";
  claim.spec.requests_storage = request;
  claim.spec.volume_name = "pv-" + name;
  claim.status.phase = "Bound";
  claim.status.capacity_storage = "1Gi";
  return claim;
}

inline kube::PersistentVolume VolumeOf(const kube::PersistentVolumeClaim& claim,
                                       const std::string& driver = kResizeDriver) {
  kube::PersistentVolume volume;
  volume.metadata.name = claim.spec.volume_name;
  volume.spec.capacity_storage = "1Gi";
  volume.spec.access_modes = {"ReadWriteOnce"};
  volume.spec.claim_ref = kube::ClaimReference{.namespace_ = claim.metadata.namespace_,
                                               .name = claim.metadata.name,
                                               .uid = claim.metadata.uid};
  kube::CSIPersistentVolumeSource csi;
  csi.driver = driver;
  csi.volume_handle = "vol-" + claim.metadata.name;
  volume.spec.source = csi;
  return volume;
}

}  // namespace resizer::testing
