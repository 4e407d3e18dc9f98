// ClaimTaker: how a node-deployed provisioner takes a claim nobody has
// placed yet (docs/provisioner.md §3.12, upstream's becomeOwner). Every
// node's provisioner sees the same Immediate claim, so each first waits a
// delay of its own - per claim, growing exponentially from
// --node-deployment-base-delay up to --node-deployment-max-delay, less a
// random part of one base delay so the nodes do not all wake together -
// and looks at the claim cache meanwhile, every max(base/100, 10 ms), to
// give up as soon as another node has taken it (the caller sees that and
// calls Forget). Once the wait is over the caller's room check must not say
// "too small" (an error there is only logged: provisioning will tell the
// user), then the claim's selected-node annotation is written with this
// node, guarded by the resourceVersion the cache showed: a conflict means
// someone else wrote first and the whole attempt starts over with the next,
// longer delay. The claim is provisioned when the updated claim comes back
// through the watch, not here.
//
// The wait does not hold a worker: Try answers "come back in ..." and the
// claim queue brings the claim back, with the cache's newest version.
//
// Thread-safe; one key is never tried by two threads at once (the claim
// queue's rule).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/runtime/action.h"
#include "provisioner/node_deployment.h"
#include "provisioner/provisioner_api.h"

namespace provisioner {

// The wait before attempt `attempt` (0 for the first): base·2^attempt,
// capped at `max`, less `jitter` (in [0, 1)) times base, never below zero.
std::chrono::nanoseconds OwnershipDelay(std::chrono::nanoseconds base, std::chrono::nanoseconds max,
                                        int attempt, double jitter);

// How often a waiting claim is looked at again: base/100, at least 10 ms.
std::chrono::nanoseconds OwnershipPollInterval(std::chrono::nanoseconds base);

class ClaimTaker {
 public:
  // Whether the driver has room for the claim on this node; an error when
  // that could not be found out.
  using RoomCheck = std::function<base::Result<bool>()>;
  // A number in [0, 1) for each delay's jitter.
  using Jitter = std::function<double()>;

  // `node`, `api` and `clock` outlive the taker; an empty `jitter` draws
  // uniformly at random.
  ClaimTaker(const NodeDeploymentOptions& node, ProvisionerApi& api, base::Clock& clock,
             Jitter jitter = {});

  // For the claim at `key` (the cache's version) that has no selected node
  // and that this node may take.
  kube::ReconcileResult Try(const std::string& key, const kube::PersistentVolumeClaim& claim,
                            const RoomCheck& has_room);
  // Another node took the claim, or it is gone: a later attempt starts from
  // the base delay again.
  void Forget(const std::string& key);

 private:
  struct Wait {
    std::string claim_uid;
    int attempts = 0;                             // waits started since the last Forget
    std::optional<base::Clock::TimePoint> until;  // while one runs
  };

  // The claim's wait, started if none runs; nullopt once it is over.
  std::optional<base::Clock::Duration> WaitLeft(const std::string& key,
                                                const kube::PersistentVolumeClaim& claim);
  kube::ReconcileResult TakeNow(const std::string& key, const kube::PersistentVolumeClaim& claim,
                                const RoomCheck& has_room);

  const NodeDeploymentOptions& node_;
  ProvisionerApi& api_;
  base::Clock& clock_;
  Jitter jitter_;
  const std::chrono::nanoseconds poll_interval_;

  std::mutex mu_;
  std::map<std::string, Wait> waits_;  // by claim key; guarded by mu_
};

}  // namespace provisioner
