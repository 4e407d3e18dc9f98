#include "provisioner/command/setup.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>

#include "base/log.h"
#include "component/loop_options.h"
#include "provisioner/capacity_owner.h"
#include "provisioner/names.h"
#include "provisioner/node_deployment.h"
#include "provisioner/provisioner_metrics.h"

namespace csiprovisioner {
namespace {

// §2.4 step 7: "<unix ms>-<0..9999>-<driver>", recorded in every PV it
// makes; in node deployment "-<node>" follows.
std::string ProvisionerIdentity(const std::string& driver_name, const std::string& node_name) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  std::random_device seed;
  std::uniform_int_distribution<int> random(0, 9999);
  std::string identity =
      std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now).count()) + "-" +
      std::to_string(random(seed)) + "-" + driver_name;
  if (!node_name.empty()) identity += "-" + node_name;
  return identity;
}

// §2.4 step 7, §3.12: who this node is, asked once; the claims and volumes
// it is responsible for follow from it, and so does its capacity (§5).
base::Status SetUpNodeDeployment(const Options& options, const std::string& node_name,
                                 const component::CsiDriver& driver,
                                 provisioner::RunProvisionerOptions& out) {
  base::Result<provisioner::NodeInfo> info =
      provisioner::ReadNodeInfo(driver.connection, options.timeout);
  if (!info.ok()) {
    return base::Error("Failed to get node info from CSI driver: " + info.error().message);
  }
  out.claims.node = provisioner::NodeDeploymentOptions{
      .node_name = node_name,
      .info = std::move(*info),
      .immediate_binding = options.node_deployment_immediate_binding,
      .base_delay = options.node_deployment_base_delay,
      .max_delay = options.node_deployment_max_delay};
  return base::Status::Ok();
}

}  // namespace

provisioner::RunProvisionerOptions ProvisionerOptionsFrom(const Options& options,
                                                          const component::FeatureGates& gates) {
  provisioner::RunProvisionerOptions out;
  out.timeout = options.timeout;
  // Upstream's claims and volumes are resynced every 15 minutes; there is no flag.
  out.claims.loop =
      component::LoopOptionsFrom(options.worker_threads, options, std::chrono::minutes(15));
  out.claims.request = {
      .volume_name_prefix = options.volume_name_prefix,
      .volume_name_uuid_length = static_cast<int>(options.volume_name_uuid_length),
      .default_fstype = options.default_fstype,
      .extra_create_metadata = options.extra_create_metadata,
      .volume_attributes_class = gates.Enabled(kVolumeAttributesClass),
      .cross_namespace_data_sources = gates.Enabled(kCrossNamespaceVolumeDataSource),
      .prevent_volume_mode_conversion = options.prevent_volume_mode_conversion};
  out.claims.controller_publish_readonly = options.controller_publish_readonly;
  // Below one starts no worker, as upstream's loop would.
  out.cloning_protection_threads =
      static_cast<uint32_t>(std::max<int64_t>(0, options.cloning_protection_threads));
  out.snapshot_orphan_sweep_interval = options.snapshot_orphan_sweep_interval;
  out.delete_not_found_is_success = options.delete_volume_not_found_is_success;
  return out;
}

namespace {

// §2.4 step 8: capacity tracking needs $NAMESPACE, and $POD_NAME for an
// owner; its client has the capacity QPS budget of its own.
base::Status SetUpCapacity(const Options& options, const kube::Client& main_client,
                           const std::string& driver_name, std::unique_ptr<kube::Client>& client,
                           provisioner::RunProvisionerOptions& out) {
  const char* ns = std::getenv("NAMESPACE");
  if (!ns || !*ns) return base::Error("need NAMESPACE env variable for CSIStorageCapacity objects");
  client = main_client.WithOwnTokenBucket(options.kube_api_capacity_qps,
                                          static_cast<int>(options.kube_api_capacity_burst));
  provisioner::CapacityTracking tracking;
  tracking.controller.driver = driver_name;
  tracking.controller.namespace_ = ns;
  tracking.client = client.get();
  if (options.capacity_ownerref_level >= 0) {
    const char* pod = std::getenv("POD_NAME");
    if (!pod || !*pod) {
      return base::Error("need POD_NAME env variable to determine CSIStorageCapacity owner");
    }
    base::Result<kube::OwnerReference> owner = provisioner::LookUpCapacityOwner(
        *client, ns, pod, static_cast<int>(options.capacity_ownerref_level));
    if (!owner.ok()) {
      return base::Error("look up owner(s) of pod: " + owner.error().message);
    }
    LOG_INFO("using " + owner->api_version + "/" + owner->kind + " " + owner->name +
             " as owner of CSIStorageCapacity objects");
    tracking.controller.owner = std::move(*owner);
  }
  if (const auto& node = out.claims.node) {
    tracking.controller.managed_by = provisioner::NodeCapacityManagedBy(node->node_name);
    tracking.controller.fixed_segment = node->info.topology.value_or(provisioner::TopologyTerm{});
  }
  tracking.controller.immediate_binding = options.capacity_for_immediate_binding;
  tracking.controller.poll_interval = options.capacity_poll_interval;
  tracking.controller.loop = {
      .name = std::string(provisioner::kCapacityQueueName),
      .workers = static_cast<uint32_t>(std::max<int64_t>(0, options.capacity_threads)),
      .retry_start = out.claims.loop.retry_interval_start,
      .retry_max = out.claims.loop.retry_interval_max};
  out.capacity = std::move(tracking);
  return base::Status::Ok();
}

}  // namespace

base::Status SetUpForDriver(const Options& options, const component::FeatureGates& gates,
                            const std::string& node_name, const component::CsiDriver& driver,
                            const kube::Client& client,
                            std::unique_ptr<kube::Client>& capacity_client,
                            provisioner::RunProvisionerOptions& out) {
  out.identity = ProvisionerIdentity(driver.name, node_name);
  // §3.6: topology needs both the driver's capability and the gate.
  if (gates.Enabled(kTopology) &&
      driver.capabilities.Has(csi::PluginService::VOLUME_ACCESSIBILITY_CONSTRAINTS)) {
    out.claims.topology = provisioner::TopologyOptions{.strict = options.strict_topology,
                                                       .immediate = options.immediate_topology};
  }
  if (options.node_deployment) {
    if (base::Status s = SetUpNodeDeployment(options, node_name, driver, out); !s.ok()) return s;
  }
  if (options.enable_capacity) {
    return SetUpCapacity(options, client, driver.name, capacity_client, out);
  }
  return base::Status::Ok();
}

}  // namespace csiprovisioner
