// FakeObjectServer: the object-keeping half of the handler tests' fake APIs,
// in the style of upstream's snapshotReactor: it keeps each kind's objects as
// the API server's JSON and answers as the API server does:
//   - Create: AlreadyExists (409) for a taken name; status dropped for kinds
//     with a status subresource; an object without a UID gets "uid-<name>";
//   - List: the objects of one namespace ("" for cluster-scoped kinds), by name;
//   - Update: a resourceVersion that is set must match (409 Conflict);
//   - Patch: JSON Patch as Kubernetes applies it (a failed test is 422;
//     testing null also passes for an absent path; replacing a missing
//     member of an object sets it), merge patch with the resourceVersion
//     precondition (409);
//   - a status write changes only status, a main-resource write all but it;
//   - Delete: an object with finalizers gets a deletionTimestamp, and is gone
//     once a write leaves it with none;
//   - every write bumps the resourceVersion; NotFound (404) as the server
//     words it ("<resource>.<group> \"name\" not found").
// Not thread-safe: the fake that owns it holds its own lock.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "kube/api/codec.h"
#include "kube/api/kind.h"
#include "kube/client/client.h"

namespace testsupport {

class FakeObjectServer {
 public:
  // The deletionTimestamp Delete sets on an object that has finalizers.
  static constexpr const char* kDeletionTimestamp = "2024-01-01T00:00:00Z";

  // Stores `object` as the server's copy, as it is (no resourceVersion bump).
  template <kube::ResourceKind T>
  void Put(const T& object) {
    objects_[Resource<T>()][KeyOf(object.metadata.namespace_, object.metadata.name)] =
        nlohmann::json(object);
  }
  // The server's copy; nullopt when there is none.
  template <kube::ResourceKind T>
  std::optional<T> Stored(const std::string& ns, const std::string& name) const {
    auto kind = objects_.find(Resource<T>());
    if (kind == objects_.end()) return std::nullopt;
    auto it = kind->second.find(KeyOf(ns, name));
    if (it == kind->second.end()) return std::nullopt;
    return Decode<T>(it->second);
  }
  // Another writer changed the object: only its resourceVersion moves.
  template <kube::ResourceKind T>
  void BumpResourceVersion(const std::string& ns, const std::string& name) {
    Bump(objects_[Resource<T>()].at(KeyOf(ns, name)));
  }

  template <kube::ResourceKind T>
  base::Result<T> Get(const std::string& ns, const std::string& name) const {
    if (auto stored = Stored<T>(ns, name)) return *stored;
    return NotFound<T>(name);
  }

  template <kube::ResourceKind T>
  base::Result<T> Create(const T& object) {
    const std::string& name = object.metadata.name;
    auto& kind = objects_[Resource<T>()];
    const std::string key = KeyOf(object.metadata.namespace_, name);
    if (kind.contains(key)) {
      return base::Error::Http(409, GroupResource<T>() + " \"" + name + "\" already exists");
    }
    nlohmann::json stored = nlohmann::json(object);
    if (T::kFacts.status_subresource) stored.erase("status");
    if (object.metadata.uid.empty()) stored["metadata"]["uid"] = "uid-" + name;
    stored["metadata"]["resourceVersion"] = "0";
    Bump(stored);
    kind[key] = stored;
    return Decode<T>(stored);
  }

  template <kube::ResourceKind T>
  std::vector<T> List(const std::string& ns) const {
    std::vector<T> items;
    auto kind = objects_.find(Resource<T>());
    if (kind == objects_.end()) return items;
    for (const auto& [key, object] : kind->second) {
      if (key.starts_with(ns + "/")) items.push_back(Decode<T>(object));
    }
    return items;
  }

  // A PUT of the main resource (`status` false) or the status subresource.
  template <kube::ResourceKind T>
  base::Result<T> Update(const T& object, bool status = false) {
    const std::string& name = object.metadata.name;
    auto& kind = objects_[Resource<T>()];
    auto it = kind.find(KeyOf(object.metadata.namespace_, name));
    if (it == kind.end()) return NotFound<T>(name);
    const std::string& rv = object.metadata.resource_version;
    if (!rv.empty() && rv != it->second["metadata"].value("resourceVersion", "")) {
      return Conflict<T>(name);
    }
    return Write<T>(kind, it, nlohmann::json(object), status);
  }

  template <kube::ResourceKind T>
  base::Result<T> Patch(const std::string& ns, const std::string& name, kube::PatchType type,
                        const std::string& patch, bool status) {
    auto& kind = objects_[Resource<T>()];
    auto it = kind.find(KeyOf(ns, name));
    if (it == kind.end()) return NotFound<T>(name);
    nlohmann::json patched;
    if (type == kube::PatchType::kJson) {
      auto applied = ApplyJsonPatch(it->second, nlohmann::json::parse(patch));
      if (!applied.ok()) return applied.error();
      patched = std::move(*applied);
    } else {
      nlohmann::json merge = nlohmann::json::parse(patch);
      const nlohmann::json* rv =
          merge.contains("metadata") ? &merge["metadata"]["resourceVersion"] : nullptr;
      if (rv && !rv->is_null() && *rv != it->second["metadata"]["resourceVersion"]) {
        return Conflict<T>(name);
      }
      patched = it->second;
      patched.merge_patch(merge);
    }
    return Write<T>(kind, it, std::move(patched), status);
  }

  template <kube::ResourceKind T>
  base::Status Delete(const std::string& ns, const std::string& name) {
    auto& kind = objects_[Resource<T>()];
    auto it = kind.find(KeyOf(ns, name));
    if (it == kind.end()) return NotFound<T>(name);
    nlohmann::json& metadata = it->second["metadata"];
    if (metadata.value("finalizers", nlohmann::json::array()).empty()) {
      kind.erase(it);
    } else if (!metadata.contains("deletionTimestamp")) {
      metadata["deletionTimestamp"] = kDeletionTimestamp;
      Bump(it->second);
    }
    return base::Status::Ok();
  }

 private:
  using Objects = std::map<std::string, nlohmann::json>;  // by "namespace/name"

  template <kube::ResourceKind T>
  static std::string Resource() {
    return std::string(T::kFacts.plural);
  }
  // How the server names the resource in messages: "<plural>.<group>", or
  // "<plural>" for the core group.
  template <kube::ResourceKind T>
  static std::string GroupResource() {
    std::string group(T::kFacts.group());
    return Resource<T>() + (group.empty() ? "" : "." + group);
  }
  static std::string KeyOf(const std::string& ns, const std::string& name) {
    return ns + "/" + name;
  }

  template <kube::ResourceKind T>
  static base::Error NotFound(const std::string& name) {
    return base::Error::Http(404, GroupResource<T>() + " \"" + name + "\" not found");
  }
  template <kube::ResourceKind T>
  static base::Error Conflict(const std::string& name) {
    return base::Error::Http(409, "Operation cannot be fulfilled on " + GroupResource<T>() + " \"" +
                                      name +
                                      "\": the object has been modified; please apply your "
                                      "changes to the latest version and try again");
  }

  template <kube::ResourceKind T>
  static T Decode(const nlohmann::json& j) {
    auto decoded = kube::ObjectFromJson<T>(j);
    EXPECT_TRUE(decoded.ok()) << decoded.error().message;
    return decoded.ok() ? *decoded : T{};
  }
  static void Bump(nlohmann::json& object) {
    std::string rv = object["metadata"].value("resourceVersion", "0");
    object["metadata"]["resourceVersion"] = std::to_string(std::stoll(rv.empty() ? "0" : rv) + 1);
  }

  // Stores `written` in place of `it`'s object: a status write keeps all but
  // the status, a main-resource write keeps only the status.
  template <kube::ResourceKind T>
  static base::Result<T> Write(Objects& kind, Objects::iterator it, nlohmann::json written,
                               bool status) {
    nlohmann::json& stored = it->second;
    const std::string rv = stored["metadata"].value("resourceVersion", "0");
    if (status) {
      if (written.contains("status")) {
        stored["status"] = written["status"];
      } else {
        stored.erase("status");
      }
    } else if (T::kFacts.status_subresource) {
      nlohmann::json kept_status = stored.value("status", nlohmann::json());
      stored = std::move(written);
      stored.erase("status");
      if (!kept_status.is_null()) stored["status"] = kept_status;
    } else {
      stored = std::move(written);
    }
    stored["metadata"]["resourceVersion"] = rv;
    Bump(stored);
    T decoded = Decode<T>(stored);
    if (!decoded.metadata.deletion_timestamp.empty() && decoded.metadata.finalizers.empty()) {
      kind.erase(it);  // the last finalizer went: the server deletes the object
    }
    return decoded;
  }

  // RFC 6902 as the API server applies it, op by op: a `test` for null also
  // passes when the path is absent, and a `replace` of a missing member of
  // an existing object sets it.
  static base::Result<nlohmann::json> ApplyJsonPatch(nlohmann::json doc,
                                                     const nlohmann::json& ops) {
    for (nlohmann::json op : ops) {
      nlohmann::json::json_pointer path(op["path"].get<std::string>());
      if (op["op"] == "test") {
        nlohmann::json actual = doc.contains(path) ? doc[path] : nlohmann::json();
        if (actual != op["value"]) {
          return base::Error::Http(422,
                                   "the server rejected our request due to an error in our "
                                   "request: test failed at " +
                                       op["path"].get<std::string>());
        }
        continue;
      }
      if (op["op"] == "replace" && !doc.contains(path) && doc.contains(path.parent_pointer()) &&
          doc[path.parent_pointer()].is_object()) {
        op["op"] = "add";
      }
      try {
        doc = doc.patch(nlohmann::json::array({op}));
      } catch (const std::exception& e) {
        return base::Error::Http(422, e.what());
      }
    }
    return doc;
  }

  std::map<std::string, Objects> objects_;  // by resource (plural)
};

}  // namespace testsupport
