// WrittenClaims: PersistentVolumeClaims as the API server last sent them to
// the controller: the answer to its last PUT of each, kept while it carries
// the `pvc-as-source-protection` finalizer, and the answer to a GET that a
// PUT is about to follow (docs/snapshots.md §4.3 step 1, §9.4). A claim is
// only ever replaced whole (§5: update, no patch), and the informer's decoded
// copy drops fields that PUT must send back, so a write starts from the
// claim's JSON: the fresh read that precedes the finalizer's addition, and
// for its removal the answer to our PUT when the claim has not changed since
// (same resourceVersion), which saves the second GET of a snapshot's life.
//
// The kept answer also tells the finalizer's removal what the cache may not
// show yet: a claim our own PUT gave the finalizer, whose watch event has not
// arrived (or was lost with a restarting API server) when its snapshot turns
// ready (§9.14).
//
// Thread-safe. Holds at most kCapacity claims (a claim beyond that is read
// again when it is written); an entry is dropped when taken, when a PUT
// leaves the claim without the finalizer, or never when another writer
// removes the finalizer or a read is not followed by a write (bounded by
// kCapacity).
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "kube/api/core/v1/persistent_volume_claim.h"

namespace snapshot_controller {

class WrittenClaims {
 public:
  static constexpr std::size_t kCapacity = 10000;

  // The JSON we kept for claim ns/name, if it is at `resource_version`; the
  // entry goes either way (a claim that moved on is read fresh).
  std::optional<std::string> Take(std::string_view ns, std::string_view name,
                                  std::string_view resource_version);
  // The JSON we kept for claim ns/name if it carries the finalizer; the entry stays.
  std::optional<std::string> WithFinalizer(std::string_view ns, std::string_view name);
  // After a PUT of ours: `json` is the answer, `claim` its decoded form.
  void Remember(const kube::PersistentVolumeClaim& claim, std::string json);
  // After a GET that a PUT will follow, whatever the claim's finalizers.
  void RememberRead(const kube::PersistentVolumeClaim& claim, std::string json);

 private:
  void Keep(std::string key, const kube::PersistentVolumeClaim& claim, std::string json);

  struct Written {
    std::string resource_version;
    std::string json;
    bool with_finalizer;
  };

  std::mutex mu_;
  std::unordered_map<std::string, Written> claims_;  // by namespace/name
};

}  // namespace snapshot_controller
