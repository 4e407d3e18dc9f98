// --feature-gates (docs/attacher.md §1.3): the rules of Kubernetes' featuregate
// package for setting gates, over a table of gates each binary passes in (its
// own gates plus whatever its upstream accepts; AllAlpha/AllBeta belong in
// every table).
//
// SetFromMap is all-or-nothing: an unknown name ("unrecognized feature gate:
// X", checked first in name order and ending the check) or a gate locked to
// its default set otherwise ("cannot set feature gate X to V, feature is
// locked to D") leaves every gate as it was. Several errors read "[a, b]".
// Log lines as upstream's: "Warning: setting GA (deprecated) feature gate…"
// per such gate set, and V(1) "Updated" with the gates set. AllAlpha/AllBeta
// set every alpha/beta gate not named explicitly.
//
// Not thread-safe to set; set once at startup, then read from any thread.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace component {

// The switches that set every alpha (beta) gate not named explicitly.
inline constexpr std::string_view kAllAlpha = "AllAlpha";
inline constexpr std::string_view kAllBeta = "AllBeta";

enum class FeatureStage { kAlpha, kBeta, kGA, kDeprecated };

struct FeatureSpec {
  std::string_view name;
  bool default_enabled;
  FeatureStage stage;
  bool locked_to_default = false;
};

// `specs` sorted by name: a binary's table as its KnownFeatureSpecs hands it
// out, whatever order it is written in.
std::vector<FeatureSpec> SortedByName(std::vector<FeatureSpec> specs);

// How upstream's log lines show a set of gates: `{"A":true,"B":false}`.
std::string FormatFeatureGates(const std::map<std::string, bool>& gates);

class FeatureGates {
 public:
  // Every gate --feature-gates accepts; names must be unique.
  explicit FeatureGates(const std::vector<FeatureSpec>& specs);

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

}  // namespace component
