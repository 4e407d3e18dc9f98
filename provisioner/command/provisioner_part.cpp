#include "provisioner/command/provisioner_part.h"

#include <optional>

#include "component/node_name.h"
#include "component/volume_attributes_class_gate.h"
#include "provisioner/command/options.h"
#include "provisioner/command/setup.h"
#include "provisioner/names.h"
#include "provisioner/provisioner_metrics.h"
#include "provisioner/run_provisioner.h"

namespace csiprovisioner {
namespace {

class ProvisionerPart final : public component::ControllerPart {
 public:
  std::string_view name() const override { return "provisioner"; }
  const std::vector<component::FeatureSpec>& feature_specs() const override {
    return KnownFeatureSpecs();
  }
  const char* identity_variable() const override { return "CSI_PROVISIONER_LEADER_IDENTITY"; }

  void RegisterFlags(base::FlagSet& flags) override { RegisterOwnFlags(flags, options_); }

  base::Status Configure(const component::SharedSettings& shared, const base::FlagSet& flags,
                         component::SidecarMetricFamilies& families) override {
    static_cast<component::SidecarOptions&>(options_) = shared.options;
    if (shared.timeout && !flags.IsSet("timeout")) options_.timeout = *shared.timeout;
    if (base::Status s = CheckOptions(options_); !s.ok()) return s;
    if (base::Status s = component::ReadNodeName(options_.node_deployment, node_name_); !s.ok())
      return s;
    gates_ = &shared.gates;
    volume_attributes_class_ = &shared.volume_attributes_class;
    run_options_ = ProvisionerOptionsFrom(options_, shared.gates);
    metrics_.emplace(families);
    return base::Status::Ok();
  }
  std::chrono::nanoseconds csi_timeout() const override { return options_.timeout; }
  bool labels_migrated_calls() const override { return true; }
  // Upstream's claims and volumes are resynced every 15 minutes (no flag).
  std::chrono::nanoseconds resync_period() const override {
    return run_options_.claims.loop.resync_period;
  }

  base::Status Prepare(const component::CsiDriver& driver, kube::Client& client) override {
    driver_ = &driver;
    client_ = &client;
    run_options_.claims.request.volume_attributes_class = volume_attributes_class_->Settle(
        client, gates_->Enabled(kVolumeAttributesClass),
        options_.feature_gates.contains(std::string(kVolumeAttributesClass)));
    return SetUpForDriver(options_, *gates_, node_name_, driver, client, capacity_client_,
                          run_options_);
  }
  std::string lease_name() const override { return provisioner::LeaseNameFor(driver_->name); }
  std::unique_ptr<component::BuiltControllers> Build(kube::InformerSet& informers) override {
    return std::make_unique<component::BuiltOf<provisioner::Provisioner>>(
        run_options_, *driver_, *client_, informers, *metrics_);
  }

 private:
  Options options_;
  std::string node_name_;
  const component::FeatureGates* gates_ = nullptr;
  component::VolumeAttributesClassGateOnce* volume_attributes_class_ = nullptr;
  provisioner::RunProvisionerOptions run_options_;
  std::optional<provisioner::ProvisionerMetrics> metrics_;
  const component::CsiDriver* driver_ = nullptr;
  kube::Client* client_ = nullptr;
  std::unique_ptr<kube::Client> capacity_client_;
};

}  // namespace

std::unique_ptr<component::ControllerPart> NewProvisionerPart() {
  return std::make_unique<ProvisionerPart>();
}

}  // namespace csiprovisioner
