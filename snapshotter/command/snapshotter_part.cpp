#include "snapshotter/command/snapshotter_part.h"

#include <optional>

#include "component/node_name.h"
#include "snapshot/feature_gates.h"
#include "snapshot/snapshot_clients.h"
#include "snapshotter/command/options.h"
#include "snapshotter/names.h"
#include "snapshotter/run_sidecar.h"
#include "snapshotter/sidecar_metrics.h"
#include "snapshotter/startup_checks.h"

namespace csisnapshotter {
namespace {

class SnapshotterPart final : public component::ControllerPart {
 public:
  std::string_view name() const override { return "snapshotter"; }
  const std::vector<component::FeatureSpec>& feature_specs() const override {
    return snapshot::KnownFeatureSpecs();
  }
  const char* identity_variable() const override { return "CSI_SNAPSHOTTER_LEADER_IDENTITY"; }

  void RegisterFlags(base::FlagSet& flags) override { RegisterOwnFlags(flags, options_); }

  base::Status Configure(const component::SharedSettings& shared, const base::FlagSet& flags,
                         component::SidecarMetricFamilies& families) override {
    static_cast<component::SidecarOptions&>(options_) = shared.options;
    if (shared.timeout && !flags.IsSet("timeout")) options_.timeout = *shared.timeout;
    if (base::Status s = CheckNodeDeployment(options_); !s.ok()) return s;
    if (base::Status s = CheckSnapshotName(options_); !s.ok()) return s;
    std::string node_name;
    if (base::Status s = component::ReadNodeName(options_.node_deployment, node_name); !s.ok())
      return s;
    groups_enabled_ = shared.gates.Enabled(snapshot::kCSIVolumeGroupSnapshot);
    run_options_ = SidecarOptionsFrom(options_, std::move(node_name));
    metrics_.emplace(families);
    return base::Status::Ok();
  }
  std::chrono::nanoseconds csi_timeout() const override { return options_.timeout; }
  bool labels_migrated_calls() const override { return false; }
  std::chrono::nanoseconds resync_period() const override { return options_.resync_period; }

  base::Status Prepare(const component::CsiDriver& driver, kube::Client& client) override {
    if (!snapshotter::CheckSnapshotSupport(driver)) {
      return base::Error("CSI driver " + driver.name +
                         " does not support ControllerCreateSnapshot");
    }
    // Secret reads and Events, and the snapshot objects: a budget each, as
    // csi-snapshotter's two clientsets.
    clients_.core = client.WithOwnTokenBucket();
    clients_.snapshots = client.WithOwnTokenBucket();
    snapshotter::GroupSnapshotsStart groups =
        snapshotter::StartGroupSnapshots({.enabled = groups_enabled_,
                                          .name_prefix = options_.groupsnapshot_name_prefix,
                                          .timeout = options_.timeout},
                                         *clients_.snapshots, driver);
    if (groups.exit_code) return base::Error("group snapshots cannot start");
    run_options_.group_snapshots = groups.enabled;
    driver_ = &driver;
    return base::Status::Ok();
  }
  std::string lease_name() const override { return snapshotter::LeaseNameFor(driver_->name); }
  std::unique_ptr<component::BuiltControllers> Build(kube::InformerSet& informers) override {
    return std::make_unique<component::BuiltOf<snapshotter::Sidecar>>(
        run_options_, *driver_, clients_, informers, *metrics_);
  }

 private:
  Options options_;
  bool groups_enabled_ = false;
  snapshotter::RunSidecarOptions run_options_;
  std::optional<snapshotter::SidecarMetrics> metrics_;
  snapshot::SnapshotClients clients_;
  const component::CsiDriver* driver_ = nullptr;
};

}  // namespace

std::unique_ptr<component::ControllerPart> NewSnapshotterPart() {
  return std::make_unique<SnapshotterPart>();
}

}  // namespace csisnapshotter
