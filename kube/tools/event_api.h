// EventApi: the two calls an EventRecorder makes, behind an interface so its
// tests run against an in-memory fake; ClientEventApi is the real one on a
// kube::Client. Errors are kube::Client's, classified by api_error.h.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/core/v1/event.h"
#include "kube/client/client.h"

namespace kube {

class EventApi {
 public:
  virtual ~EventApi() = default;
  // POST; the Event names its namespace and its (client-chosen) name.
  virtual base::Status Create(const Event& event) = 0;
  // A JSON merge patch on an existing Event.
  virtual base::Status Patch(std::string_view ns, std::string_view name,
                             const std::string& merge_patch) = 0;
};

// Thread-safe as the Client is.
class ClientEventApi final : public EventApi {
 public:
  explicit ClientEventApi(Client& client) : client_(client) {}

  base::Status Create(const Event& event) override {
    auto created = client_.Create(event);
    if (!created.ok()) return created.error();
    return base::Status::Ok();
  }
  base::Status Patch(std::string_view ns, std::string_view name,
                     const std::string& merge_patch) override {
    auto patched = client_.Patch<Event>(ns, name, PatchType::kMerge, merge_patch);
    if (!patched.ok()) return patched.error();
    return base::Status::Ok();
  }

 private:
  Client& client_;
};

}  // namespace kube
