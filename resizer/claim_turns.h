// How the resize and modify controllers share a claim (docs/resizer.md §9,
// upstream #458). Both write the claim's status with patches guarded by the
// resourceVersion they read. Upstream's two controllers act on a claim at
// once when its size and class change together: both read one version, the
// second patch is refused (Conflict), and that controller waits out its
// error backoff before it starts again. Here:
//   - ClaimTurns: one sync at a time holds a claim's turn. A sync that finds
//     the turn taken ends at once, and its controller queues the claim again
//     when the holder gives the turn back (TakeTurn);
//   - WriteClaimStatus: the claim as a status patch left it replaces the
//     cached claim, unless a watch event replaced that version meanwhile, so
//     the next sync of either controller starts from what the API server
//     holds instead of a stale copy that would be refused.
// (The watch event of such a write then finds its version cached already and
// queues nothing.)
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/runtime/controller.h"
#include "kube/runtime/store.h"
#include "resizer/resizer_api.h"

namespace resizer {

// Thread-safe.
class ClaimTurns {
 public:
  // A claim's turn, given back when destroyed. Move-only.
  class Turn {
   public:
    Turn(Turn&& other) noexcept;
    Turn& operator=(Turn&&) = delete;
    ~Turn();

   private:
    friend class ClaimTurns;
    Turn(ClaimTurns& turns, std::string key) : turns_(&turns), key_(std::move(key)) {}

    ClaimTurns* turns_;  // null once moved from
    std::string key_;
  };

  ClaimTurns() = default;
  ClaimTurns(const ClaimTurns&) = delete;
  ClaimTurns& operator=(const ClaimTurns&) = delete;

  // The turn of claim `key`; nullopt when another sync holds it, and then
  // `wake` is called once that turn is given back (on the thread giving it).
  std::optional<Turn> TryTake(const std::string& key, std::function<void()> wake);

 private:
  void GiveBack(const std::string& key);

  std::mutex mu_;
  // The claims whose turn is taken, with who waits for each.
  std::unordered_map<std::string, std::vector<std::function<void()>>> taken_;  // guarded by mu_
};

// A sync's turn and the claim the cache holds once it has it.
struct ClaimInTurn {
  ClaimTurns::Turn turn;
  std::shared_ptr<const kube::PersistentVolumeClaim> claim;  // null: the claim is gone
};

// The turn of `key` for a sync of `controller`, which queues `key` again
// when the turn is given back if another sync holds it (nullopt then).
std::optional<ClaimInTurn> TakeTurn(ClaimTurns& turns,
                                    kube::Controller<kube::PersistentVolumeClaim>& controller,
                                    const std::string& key);

// api.PatchClaimStatus of `base` (the claim the patch was made from); the
// answer also replaces `base` in `claims` while `claims` still holds that
// version.
base::Result<kube::PersistentVolumeClaim> WriteClaimStatus(
    ResizerApi& api, kube::Store<kube::PersistentVolumeClaim>& claims,
    const kube::PersistentVolumeClaim& base, const std::string& patch);

}  // namespace resizer
