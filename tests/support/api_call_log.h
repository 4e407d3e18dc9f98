// ApiCallLog: the recording half of the handler tests' fake APIs. Each call is
// (verb, resource, name, subresource, patch type, body) as strings, so a
// mismatch prints readably; calls matching a scripted ApiFailure fail with
// its error. Not thread-safe: the fake that owns it holds its own lock.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"

namespace testsupport {

struct ApiCall {
  std::string verb;         // "create", "update", "patch", "get" or "delete"
  std::string resource;     // e.g. "volumeattachments", "secrets"
  std::string name;         // "<namespace>/<name>" for namespaced objects
  std::string subresource;  // "" or "status"
  std::string patch_type;   // "merge", "json", or "" for a get
  std::string body;

  bool operator==(const ApiCall&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const ApiCall& c) {
    return os << c.verb << " " << c.resource << "/" << c.name
              << (c.subresource.empty() ? "" : "/" + c.subresource) << " [" << c.patch_type << "] "
              << c.body;
  }
};

// The first `times` calls matching verb, resource and subresource (every one
// if `times` is negative) fail with `error`.
struct ApiFailure {
  std::string verb;
  std::string resource;
  std::string subresource;
  base::Error error;
  int times = -1;
};

class ApiCallLog {
 public:
  explicit ApiCallLog(std::vector<ApiFailure> failures) : failures_(std::move(failures)) {}

  // Records `call`; returns the error of the first scripted failure it matches.
  std::optional<base::Error> Record(const ApiCall& call) {
    calls_.push_back(call);
    for (ApiFailure& f : failures_) {
      if (f.verb == call.verb && f.resource == call.resource && f.subresource == call.subresource &&
          f.times != 0) {
        if (f.times > 0) --f.times;
        return f.error;
      }
    }
    return std::nullopt;
  }

  // Scripts one more failure, after those already there.
  void AddFailure(ApiFailure failure) { failures_.push_back(std::move(failure)); }

  const std::vector<ApiCall>& calls() const { return calls_; }
  void Clear() { calls_.clear(); }

 private:
  std::vector<ApiFailure> failures_;
  std::vector<ApiCall> calls_;
};

}  // namespace testsupport
