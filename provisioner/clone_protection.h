// CloneProtectionController: upstream's CloningProtectionController
// (docs/provisioner.md §3.7 "Clone protection") on the generic runtime
// (kube/runtime/controller.h), queue "cloning-protection", keyed
// <namespace>/<name>, run only for drivers that can clone.
//
// A claim being deleted that carries provisioner.storage.kubernetes.io/
// cloning-protection loses it (read and update) unless a Pending claim of
// its namespace clones it (spec.dataSource of kind PersistentVolumeClaim
// naming it): then `PVC '<clone>' is in 'Pending' state, cloning in
// progress` and a retry with the error backoff. A removal refused by the
// API server is retried too; a claim gone is done.
//
// Unlike upstream, which lists the namespace's claims on every sync (§8
// #587, §9.6), the Pending clones are indexed by source from the claim
// informer's events, and a clone that stops being Pending (or is deleted)
// brings its source back at once instead of waiting for the backoff.
//
// Thread-safety: Run() once; the index is guarded.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

#include "base/clock.h"
#include "component/loop_options.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/runtime/controller.h"
#include "kube/runtime/informer_set.h"
#include "provisioner/provisioner_api.h"

namespace provisioner {

class CloneProtectionController {
 public:
  using Claim = kube::PersistentVolumeClaim;

  // `loop.worker_threads` is --cloning-protection-threads. `informers` and
  // `api` must outlive the controller.
  CloneProtectionController(const component::LoopOptions& loop, kube::InformerSet& informers,
                            ProvisionerApi& api, base::Clock& clock);

  void Run(std::stop_token stop) { controller_.Run(stop); }
  const kube::WorkQueue& queue() const { return controller_.queue(); }

  // The reconcile of one claim (the runtime calls it; tests read its answer).
  kube::ReconcileResult Sync(const std::string& key, const std::shared_ptr<const Claim>& claim);

 private:
  // Keeps the index of Pending clones up to date with one claim event;
  // answers the sources whose clones changed.
  std::vector<std::string> Index(const kube::Change<Claim>& change);
  // A Pending claim cloning the claim `key`, if any.
  std::optional<std::string> PendingCloneOf(const std::string& key);

  ProvisionerApi& api_;
  std::mutex mu_;
  // Source claim key -> names of the Pending claims of its namespace that
  // clone it; guarded by mu_.
  std::map<std::string, std::set<std::string>> pending_clones_;
  kube::Controller<Claim> controller_;
};

}  // namespace provisioner
