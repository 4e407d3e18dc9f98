#include "attacher/command/attacher_part.h"

#include <optional>

#include "attacher/attacher_metrics.h"
#include "attacher/command/feature_gates.h"
#include "attacher/command/options.h"
#include "attacher/names.h"
#include "attacher/run_controller.h"

namespace csiattacher {
namespace {

class AttacherPart final : public component::ControllerPart {
 public:
  std::string_view name() const override { return "attacher"; }
  const std::vector<component::FeatureSpec>& feature_specs() const override {
    return KnownFeatureSpecs();
  }
  const char* identity_variable() const override { return "CSI_ATTACHER_LEADER_IDENTITY"; }

  void RegisterFlags(base::FlagSet& flags) override { RegisterOwnFlags(flags, options_); }

  base::Status Configure(const component::SharedSettings& shared, const base::FlagSet& flags,
                         component::SidecarMetricFamilies& families) override {
    static_cast<component::SidecarOptions&>(options_) = shared.options;
    if (shared.timeout && !flags.IsSet("timeout")) options_.timeout = *shared.timeout;
    if (base::Status s = CheckWorkerThreads(options_, flags.FullName("worker-threads")); !s.ok())
      return s;
    run_options_ = ControllerOptionsFrom(options_, shared.gates);
    metrics_.emplace(families);
    return base::Status::Ok();
  }
  std::chrono::nanoseconds csi_timeout() const override { return options_.timeout; }
  bool labels_migrated_calls() const override { return true; }
  std::chrono::nanoseconds resync_period() const override { return options_.resync; }

  base::Status Prepare(const component::CsiDriver& driver, kube::Client& client) override {
    driver_ = &driver;
    client_ = &client;
    return base::Status::Ok();
  }
  std::string lease_name() const override { return attacher::LeaseNameFor(driver_->name); }
  std::unique_ptr<component::BuiltControllers> Build(kube::InformerSet& informers) override {
    return std::make_unique<component::BuiltOf<attacher::Attacher>>(run_options_, *driver_,
                                                                    *client_, informers, *metrics_);
  }

 private:
  Options options_;
  attacher::RunControllerOptions run_options_;
  std::optional<attacher::AttacherMetrics> metrics_;
  const component::CsiDriver* driver_ = nullptr;
  kube::Client* client_ = nullptr;
};

}  // namespace

std::unique_ptr<component::ControllerPart> NewAttacherPart() {
  return std::make_unique<AttacherPart>();
}

}  // namespace csiattacher
