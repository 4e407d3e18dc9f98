// --feature-gates (BEHAVIOR.md §1.3): the gates upstream's binary knows and
// the rules of Kubernetes' featuregate package for setting them.
//
// Upstream applies the flag to the process-wide apiserver feature gate, so
// besides the attacher's own two gates it accepts every k8s.io/apiserver gate,
// the component-base zpages gates and the AllAlpha/AllBeta switches; a
// manifest naming any of them must keep working, even though only the
// attacher's gates change what this program does.
//
// SetFromMap is all-or-nothing: an unknown name ("unrecognized feature gate:
// X", checked first in name order and ending the check) or a gate locked to
// its default set otherwise ("cannot set feature gate X to V, feature is
// locked to D") leaves every gate as it was. Several errors read "[a, b]".
// Log lines as upstream's: "Warning: setting GA (deprecated) feature gate…"
// per such gate set, and V(1) "Updated" with the gates set. AllAlpha/AllBeta
// set every alpha/beta gate not named explicitly. The table is upstream
// v4.12's (Kubernetes 1.36 libraries), checked against its binary.
//
// Not thread-safe to set; set once at startup, then read from any thread.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace csiattacher {

// The attacher's own gates (upstream pkg/features).
// GA, on: a failed attach reports the driver's gRPC code in
// status.attachError.errorCode.
inline constexpr std::string_view kMutableCSINodeAllocatableCount =
    "MutableCSINodeAllocatableCount";
// Alpha, off: upstream's graceful SIGTERM handling. Here a signal always
// stops gracefully (BEHAVIOR.md §7), so the gate only exists to be accepted.
inline constexpr std::string_view kReleaseLeaderElectionOnExit = "ReleaseLeaderElectionOnExit";

enum class FeatureStage { kAlpha, kBeta, kGA, kDeprecated };

struct FeatureSpec {
  std::string_view name;
  bool default_enabled;
  FeatureStage stage;
  bool locked_to_default = false;
};

// How upstream's log lines show a set of gates: `{"A":true,"B":false}`.
std::string FormatFeatureGates(const std::map<std::string, bool>& gates);

// Every gate --feature-gates accepts, sorted by name.
const std::vector<FeatureSpec>& KnownFeatureSpecs();

class FeatureGates {
 public:
  // `specs` must be sorted by name and unique.
  explicit FeatureGates(const std::vector<FeatureSpec>& specs = KnownFeatureSpecs());

  base::Status SetFromMap(const std::map<std::string, bool>& settings);

  // The gate's value. Asking for an unknown gate is a programming error
  // (std::logic_error).
  bool Enabled(std::string_view name) const;

  // "Name=true|false (ALPHA - default=false)" for each settable alpha and
  // beta gate, sorted, as upstream lists them in the flag's help.
  std::vector<std::string> KnownFeatures() const;

 private:
  const FeatureSpec* Find(std::string_view name) const;

  std::vector<FeatureSpec> specs_;
  // Gates set on the command line (or by AllAlpha/AllBeta); others have their default.
  std::map<std::string, bool> enabled_;
};

}  // namespace csiattacher
