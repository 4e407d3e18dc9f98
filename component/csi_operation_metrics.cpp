#include "component/csi_operation_metrics.h"

#include <string_view>
#include <vector>

#include "csi/status_error.h"

namespace component {
namespace {

constexpr std::string_view kOperationsName = "csi_sidecar_operations_seconds";
constexpr std::string_view kOperationsHelp =
    "Container Storage Interface operation duration with gRPC error code status total";

metrics::HistogramFamily& AddOperations(metrics::Registry& registry, bool migrated_label) {
  std::vector<std::string> labels = {"driver_name", "method_name", "grpc_status_code"};
  if (migrated_label) labels.push_back("migrated");
  return registry.AddHistogram({std::string(kOperationsName), std::string(kOperationsHelp),
                                metrics::Stability::kAlpha, labels},
                               {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 25, 50, 120, 300, 600});
}

}  // namespace

CsiOperationMetrics::CsiOperationMetrics(metrics::Registry& registry)
    : registry_(registry), operations_(&AddOperations(registry, false)) {}

csi::MetricsHook CsiOperationMetrics::Hook() {
  return [this](const csi::CallRecord& call) { Record(call); };
}

void CsiOperationMetrics::SetDriverName(const std::string& name, bool migrated_label) {
  std::lock_guard lock(mu_);
  driver_name_ = name;
  if (migrated_label && !migrated_label_) {
    registry_.Remove(std::string(kOperationsName));
    operations_ = &AddOperations(registry_, true);
    migrated_label_ = true;
  }
}

void CsiOperationMetrics::Record(const csi::CallRecord& call) {
  std::lock_guard lock(mu_);
  metrics::LabelValues labels = {driver_name_, std::string(call.method), csi::CodeName(call.code)};
  if (migrated_label_) labels.push_back(call.migrated ? "true" : "false");
  operations_->WithLabels(labels).Observe(call.seconds);
}

}  // namespace component
