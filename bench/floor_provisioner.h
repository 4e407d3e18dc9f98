// FloorProvisioner: the provisioner's floor, the least work any provisioner
// must do to provision a claim, as a reference no provisioner can beat (the
// floor: provision_stack.h). It keeps copies of the claims and the
// StorageClasses and the names of the PVs (one ObjectWatch each), talks CSI
// to the driver itself, and with the provisioner's identity, one client
// limited to the same QPS/burst as the provisioners and `workers` threads,
// provisions a claim that has no volume, is annotated for the benchmark
// driver, names a class of that driver and has no PV "pvc-<uid>" yet with
// exactly:
//   CreateVolume, the request our provisioner builds (provisioner/
//     volume_request.h: name, capacity, access mode, class parameters);
//   1 POST of the PV our provisioner builds from the answer
//     (provisioner/provisioned_volume.h: claimRef, finalizer, class).
// No Events, no capability probe, no claim writes, no topology. Its own
// writes' events sync nothing (kube::ReconcileLoop); a failed sync is
// retried after 5 ms, doubling up to 1 s.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>

#include "base/result.h"
#include "bench/floor_cache.h"
#include "bench/object_watch.h"
#include "csi/proto/csi.grpc.pb.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/storage/v1/storage_class.h"
#include "kube/client/client.h"
#include "kube/runtime/reconcile_loop.h"

namespace bench {

struct FloorProvisionerOptions {
  int workers = 10;
  std::string csi_socket;
  std::chrono::milliseconds timeout{30000};  // of each CSI call
};

class FloorProvisioner {
 public:
  // `client` carries the provisioner's identity and QPS/burst; it must
  // outlive this.
  static base::Result<std::unique_ptr<FloorProvisioner>> Start(kube::Client& client,
                                                               FloorProvisionerOptions options);
  ~FloorProvisioner();  // stops the watches, then the workers

 private:
  FloorProvisioner(kube::Client& client, FloorProvisionerOptions options);
  base::Status StartWatches();
  base::Status Sync(const std::string& key);
  base::Status Provision(const kube::PersistentVolumeClaim& claim,
                         const kube::StorageClass& storage_class, const std::string& volume_name);
  base::Result<csi::v1::Volume> CreateVolume(const csi::v1::CreateVolumeRequest& request);
  bool VolumeExists(const std::string& name) const;
  void NoteVolume(const std::string& name, bool exists);

  kube::Client& client_;
  const FloorProvisionerOptions options_;
  std::unique_ptr<csi::v1::Controller::Stub> csi_;
  FloorCache<kube::PersistentVolumeClaim> claims_;  // by namespace/name
  FloorCache<kube::StorageClass> classes_;          // by name
  mutable std::mutex volumes_mu_;
  std::unordered_set<std::string> volumes_;  // PV names; guarded by volumes_mu_
  kube::ReconcileLoop pool_;
  std::jthread runner_;
  std::unique_ptr<ObjectWatch<kube::StorageClass>> class_watch_;
  std::unique_ptr<ObjectWatch<kube::PersistentVolume>> volume_watch_;
  std::unique_ptr<ObjectWatch<kube::PersistentVolumeClaim>> claim_watch_;
};

}  // namespace bench
