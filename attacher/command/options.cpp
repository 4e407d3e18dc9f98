#include "attacher/command/options.h"

#include "attacher/command/feature_gates.h"
#include "component/loop_options.h"

namespace csiattacher {

void RegisterFlags(base::FlagSet& flags, Options& o) {
  component::RegisterSidecarFlags(flags, o, component::FeatureGates(KnownFeatureSpecs()));
  RegisterOwnFlags(flags, o);
  flags.Int("max-grpc-log-length", &o.max_grpc_log_length, o.max_grpc_log_length,
            "Most characters of a gRPC response written to the log; 0 or less means all.");
}

void RegisterOwnFlags(base::FlagSet& flags, Options& o) {
  flags.Duration("resync", &o.resync, o.resync,
                 "How often every cached object is handed to the controller again.");
  flags.Duration("timeout", &o.timeout, o.timeout,
                 "Deadline of each attach or detach call to the CSI driver, of each readiness "
                 "probe, and of each ListVolumes page.");
  component::RegisterRetryIntervalFlags(flags, o, "a failed attach or detach");
  flags.Uint("worker-threads", &o.worker_threads, o.worker_threads,
             "Number of workers for VolumeAttachments, and as many again for PersistentVolumes.");
  flags.Int("max-entries", &o.max_entries, o.max_entries,
            "Most entries asked for per ListVolumes page; 0 lets the driver decide.");
  flags.String("default-fstype", &o.default_fstype, o.default_fstype,
               "Filesystem type sent to the driver when a PersistentVolume names none.");
  flags.Duration("reconcile-sync", &o.reconcile_sync, o.reconcile_sync,
                 "How often VolumeAttachments are compared with what the driver reports as "
                 "published (drivers with LIST_VOLUMES_PUBLISHED_NODES only).");
}

attacher::RunControllerOptions ControllerOptionsFrom(const Options& options,
                                                     const component::FeatureGates& gates) {
  attacher::RunControllerOptions out;
  out.timeout = options.timeout;
  out.default_fstype = options.default_fstype;
  out.controller = component::LoopOptionsFrom(options.worker_threads, options, options.resync);
  out.max_entries = static_cast<int32_t>(options.max_entries);
  out.reconcile_sync = options.reconcile_sync;
  out.error_code_enabled = gates.Enabled(kMutableCSINodeAllocatableCount);
  return out;
}

base::Status CheckWorkerThreads(const Options& options, std::string_view flag_name) {
  if (options.worker_threads == 0) {
    return base::Error("Option -" + std::string(flag_name) + " must be greater than zero");
  }
  return base::Status::Ok();
}

}  // namespace csiattacher
