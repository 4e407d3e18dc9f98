// CsiOperationMetrics: csi-lib-utils' csi_sidecar_operations_seconds (ALPHA)
// histogram, labels driver_name, method_name (the full gRPC path) and
// grpc_status_code, fed by the CSI connection's metrics hook. driver_name is
// "unknown-driver" until the driver names itself (GetPluginInfo). The
// optional `migrated` label is upstream's WithMigration option: turning it on
// starts the family afresh, dropping what was recorded so far, as upstream's
// new metrics manager does.
//
// Thread-safety: every method may be called from any thread. The object must
// outlive the connection using Hook(); the registry must outlive it.
#pragma once

#include <mutex>
#include <string>

#include "csi/call_record.h"
#include "metrics/registry.h"

namespace component {

class CsiOperationMetrics {
 public:
  explicit CsiOperationMetrics(metrics::Registry& registry);
  CsiOperationMetrics(const CsiOperationMetrics&) = delete;
  CsiOperationMetrics& operator=(const CsiOperationMetrics&) = delete;

  // For csi::ConnectOptions::metrics.
  csi::MetricsHook Hook();

  // Later calls carry `name`; with `migrated_label`, also the `migrated` label.
  void SetDriverName(const std::string& name, bool migrated_label);

 private:
  void Record(const csi::CallRecord& call);

  metrics::Registry& registry_;
  std::mutex mu_;  // guards the members below
  std::string driver_name_ = "unknown-driver";
  bool migrated_label_ = false;
  metrics::HistogramFamily* operations_;
};

}  // namespace component
