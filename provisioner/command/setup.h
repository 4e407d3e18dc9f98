// The provisioner's start-up decisions (docs/provisioner.md §2.4), shared by
// csi-provisioner's own run and its part of csi-sidecars. Each returns the
// error the separate binary reports fatally (exit 255) in upstream's words;
// in csi-sidecars the error turns the provisioner off.
#pragma once

#include <memory>
#include <string>

#include "base/result.h"
#include "component/feature_gates.h"
#include "component/sidecar_startup.h"
#include "kube/client/client.h"
#include "provisioner/command/options.h"
#include "provisioner/run_provisioner.h"

namespace csiprovisioner {

// What the flags and gates decide before the driver is known.
provisioner::RunProvisionerOptions ProvisionerOptionsFrom(const Options& options,
                                                          const component::FeatureGates& gates);

// Steps 7-8 once the driver is known: the identity, topology, node
// deployment (NodeGetInfo) and capacity tracking, whose client - `client`'s
// transport with the capacity QPS budget - goes to `capacity_client`.
base::Status SetUpForDriver(const Options& options, const component::FeatureGates& gates,
                            const std::string& node_name, const component::CsiDriver& driver,
                            const kube::Client& client,
                            std::unique_ptr<kube::Client>& capacity_client,
                            provisioner::RunProvisionerOptions& out);

}  // namespace csiprovisioner
