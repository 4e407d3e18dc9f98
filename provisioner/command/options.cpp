#include "provisioner/command/options.h"

#include <string>
#include <utility>

#include "component/apiserver_feature_gates.h"

namespace csiprovisioner {

const std::vector<component::FeatureSpec>& KnownFeatureSpecs() {
  static const std::vector<component::FeatureSpec> specs = [] {
    using enum component::FeatureStage;
    std::vector<component::FeatureSpec> all = component::ApiServerFeatureSpecs();
    all.push_back({kTopology, true, kGA});
    all.push_back({kHonorPVReclaimPolicy, true, kGA, /*locked_to_default=*/true});
    all.push_back({kVolumeAttributesClass, true, kGA});
    all.push_back({kCrossNamespaceVolumeDataSource, false, kAlpha});
    all.push_back({kReleaseLeaderElectionOnExit, false, kAlpha});
    return component::SortedByName(std::move(all));
  }();
  return specs;
}

void RegisterFlags(base::FlagSet& flags, Options& o) {
  component::RegisterSidecarFlags(flags, o, component::FeatureGates(KnownFeatureSpecs()));
  component::RegisterMasterFlag(flags, o);
  RegisterOwnFlags(flags, o);
}

void RegisterOwnFlags(base::FlagSet& flags, Options& o) {
  flags.String("volume-name-prefix", &o.volume_name_prefix, o.volume_name_prefix,
               "Prefix of the name CreateVolume is asked for: <prefix>-<claim UID>.");
  flags.Int("volume-name-uuid-length", &o.volume_name_uuid_length, o.volume_name_uuid_length,
            "Characters of the claim UID, without its dashes, kept in the volume name (0 to "
            "32); -1 keeps the whole UID with its dashes.");
  flags.Int("worker-threads", &o.worker_threads, o.worker_threads,
            "Workers per queue (claims, volumes): how many CSI calls may run at once.");
  flags.Bool("delete-volume-not-found-is-success", &o.delete_volume_not_found_is_success,
             o.delete_volume_not_found_is_success,
             "Take a DeleteVolume answered NotFound as the volume deleted, for drivers that do "
             "not answer OK for a volume that is already gone as CSI asks; the PV then goes "
             "instead of waiting forever. Not in upstream's provisioner.");
  flags.Int("cloning-protection-threads", &o.cloning_protection_threads,
            o.cloning_protection_threads,
            "Workers releasing the clone-source finalizer of claims.");
  flags.Int("capacity-threads", &o.capacity_threads, o.capacity_threads,
            "Workers writing CSIStorageCapacity objects.");
  flags.Duration("snapshot-orphan-sweep-interval", &o.snapshot_orphan_sweep_interval,
                 o.snapshot_orphan_sweep_interval,
                 "How often VolumeSnapshots no pending claim restores from lose their source "
                 "finalizer; 0 turns the sweep off.");
  flags.Duration("timeout", &o.timeout, o.timeout, "Deadline of each call to the CSI driver.");
  flags.Bool("strict-topology", &o.strict_topology, o.strict_topology,
             "With WaitForFirstConsumer, ask CreateVolume for the selected node's topology only, "
             "instead of every topology of the cluster with the same keys.");
  flags.Bool("immediate-topology", &o.immediate_topology, o.immediate_topology,
             "With Immediate binding, ask CreateVolume for every topology of the nodes running the "
             "driver; false sends no topology requirement.");
  flags.Bool("extra-create-metadata", &o.extra_create_metadata, o.extra_create_metadata,
             "Add the claim's name and namespace and the PV's name to the parameters of "
             "CreateVolume.");
  flags.String(
      "default-fstype", &o.default_fstype, o.default_fstype,
      "Filesystem of volumes whose StorageClass names none; empty leaves it to the driver.");
  flags.Bool("enable-pprof", &o.enable_pprof, o.enable_pprof,
             "Enable pprof profiling on the TCP network address specified by --http-endpoint "
             "(no effect here: there is no Go runtime to profile).");
  flags.Bool("controller-publish-readonly", &o.controller_publish_readonly,
             o.controller_publish_readonly,
             "Mark the PV's CSI source readOnly when the claim asks for ReadOnlyMany alone, so "
             "ControllerPublishVolume publishes it read-only.");
  flags.Bool("prevent-volume-mode-conversion", &o.prevent_volume_mode_conversion,
             o.prevent_volume_mode_conversion,
             "Refuse to restore a VolumeSnapshot into a claim of another volume mode unless its "
             "content allows it.");
  flags.Bool("enable-capacity", &o.enable_capacity, o.enable_capacity,
             "Publish CSIStorageCapacity objects from the driver's GetCapacity answers.");
  flags.Bool("capacity-for-immediate-binding", &o.capacity_for_immediate_binding,
             o.capacity_for_immediate_binding,
             "Also publish capacity for StorageClasses with Immediate binding (the scheduler "
             "reads it only for WaitForFirstConsumer).");
  flags.Duration("capacity-poll-interval", &o.capacity_poll_interval, o.capacity_poll_interval,
                 "How often every published capacity is asked for again.");
  flags.Int("capacity-ownerref-level", &o.capacity_ownerref_level, o.capacity_ownerref_level,
            "Owner of the CSIStorageCapacity objects, counted in owner references up from this "
            "pod ($POD_NAME in $NAMESPACE): -1 none, 0 the pod, 1 its controller (StatefulSet, "
            "DaemonSet), 2 that one's (a Deployment's ReplicaSet's Deployment), ...");
  flags.Float64("kube-api-capacity-qps", &o.kube_api_capacity_qps, o.kube_api_capacity_qps,
                "Sustained requests per second of the capacity writes.");
  flags.Int("kube-api-capacity-burst", &o.kube_api_capacity_burst, o.kube_api_capacity_burst,
            "Requests allowed in a burst above kube-api-capacity-qps.");
  flags.Bool("node-deployment", &o.node_deployment, o.node_deployment,
             "Run next to the driver on every node ($NODE_NAME) and provision only the claims "
             "of this node.");
  flags.Bool("node-deployment-immediate-binding", &o.node_deployment_immediate_binding,
             o.node_deployment_immediate_binding,
             "With --node-deployment, also provision claims of Immediate classes, on the node "
             "that claims them first.");
  flags.Duration("node-deployment-base-delay", &o.node_deployment_base_delay,
                 o.node_deployment_base_delay,
                 "With --node-deployment, the first wait before claiming an Immediate claim.");
  flags.Duration("node-deployment-max-delay", &o.node_deployment_max_delay,
                 o.node_deployment_max_delay,
                 "With --node-deployment, the longest wait before claiming an Immediate claim.");
  component::RegisterRetryIntervalFlags(flags, o, "a failed provisioning or deletion");
}

base::Status CheckOptions(const Options& options) {
  if (options.volume_name_prefix.empty()) {
    return base::Error("volume name prefix cannot be of length 0");
  }
  if (options.volume_name_uuid_length < -1 || options.volume_name_uuid_length > 32) {
    return base::Error("Option -volume-name-uuid-length must be between -1 and 32, not " +
                       std::to_string(options.volume_name_uuid_length));
  }
  return base::Status::Ok();
}

}  // namespace csiprovisioner
