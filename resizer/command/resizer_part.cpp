#include "resizer/command/resizer_part.h"

#include <optional>

#include "component/volume_attributes_class_gate.h"
#include "resizer/command/options.h"
#include "resizer/command/setup.h"
#include "resizer/names.h"
#include "resizer/resizer_metrics.h"
#include "resizer/run_resizer.h"

namespace csiresizer {
namespace {

class ResizerPart final : public component::ControllerPart {
 public:
  std::string_view name() const override { return "resizer"; }
  const std::vector<component::FeatureSpec>& feature_specs() const override {
    return KnownFeatureSpecs();
  }
  const char* identity_variable() const override { return "CSI_RESIZER_LEADER_IDENTITY"; }

  void RegisterFlags(base::FlagSet& flags) override { RegisterOwnFlags(flags, options_); }

  base::Status Configure(const component::SharedSettings& shared, const base::FlagSet& flags,
                         component::SidecarMetricFamilies& families) override {
    static_cast<component::SidecarOptions&>(options_) = shared.options;
    // As csi-resizer's --timeout, a --resizer-timeout or --timeout wins over
    // --resizer-resize-timeout and --resizer-modify-timeout.
    const bool timeout_given = flags.IsSet("timeout") || shared.timeout;
    if (!flags.IsSet("timeout") && shared.timeout) options_.timeout = *shared.timeout;
    resize_timeout_ = timeout_given ? options_.timeout : options_.resize_timeout;
    modify_timeout_ = timeout_given ? options_.timeout : options_.modify_timeout;
    gates_ = &shared.gates;
    volume_attributes_class_ = &shared.volume_attributes_class;
    metrics_.emplace(families);
    return base::Status::Ok();
  }
  std::chrono::nanoseconds csi_timeout() const override { return options_.timeout; }
  bool labels_migrated_calls() const override { return true; }
  std::chrono::nanoseconds resync_period() const override { return options_.resync_period; }

  base::Status Prepare(const component::CsiDriver& driver, kube::Client& client) override {
    const bool volume_attributes_class = volume_attributes_class_->Settle(
        client, gates_->Enabled(kVolumeAttributesClass),
        options_.feature_gates.contains(std::string(kVolumeAttributesClass)));
    // The process read the controller's capabilities once for all parts.
    base::Result<ResizerSetup> setup =
        SetUpForDriver(options_, resize_timeout_, modify_timeout_, *gates_, volume_attributes_class,
                       driver, /*ask_capabilities_again=*/false);
    if (!setup.ok()) return base::Error(setup.error().message);
    setup_ = std::move(setup).value();
    driver_ = &driver;
    client_ = &client;
    return base::Status::Ok();
  }
  std::string lease_name() const override { return resizer::LeaseNameFor(driver_->name); }
  std::unique_ptr<component::BuiltControllers> Build(kube::InformerSet& informers) override {
    return std::make_unique<component::BuiltOf<resizer::Resizer>>(
        setup_.run_options, *driver_, setup_.expander.get(), setup_.modifier.get(), *client_,
        informers, *metrics_);
  }

 private:
  Options options_;
  std::chrono::nanoseconds resize_timeout_{0};
  std::chrono::nanoseconds modify_timeout_{0};
  const component::FeatureGates* gates_ = nullptr;
  component::VolumeAttributesClassGateOnce* volume_attributes_class_ = nullptr;
  std::optional<resizer::ResizerMetrics> metrics_;
  ResizerSetup setup_;
  const component::CsiDriver* driver_ = nullptr;
  kube::Client* client_ = nullptr;
};

}  // namespace

std::unique_ptr<component::ControllerPart> NewResizerPart() {
  return std::make_unique<ResizerPart>();
}

}  // namespace csiresizer
