// Checks every binary's gate table (its KnownFeatureSpecs, passed to
// component::FeatureGates) must pass, whatever upstream version it follows:
// names unique and sorted, and a binary's own GA and alpha gates settable as
// upstream's featuregate package allows (docs/attacher.md §1.3,
// docs/snapshots.md §1 "Feature gates").
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "component/feature_gates.h"
#include "tests/support/log_capture.h"

namespace component::testing {

// Each name once, sorted bytewise, as KnownFeatures and upstream list them.
inline void ExpectSortedAndUnique(const std::vector<FeatureSpec>& specs) {
  for (size_t i = 1; i < specs.size(); ++i) EXPECT_LT(specs[i - 1].name, specs[i].name);
}

// `name` is a GA gate, on by default, that can be switched off with
// featuregate's warning.
inline void ExpectGaGateCanBeTurnedOffWithAWarning(const std::vector<FeatureSpec>& specs,
                                                   const std::string& name) {
  testsupport::LogCapture logs;
  FeatureGates gates(specs);
  EXPECT_TRUE(gates.Enabled(name));
  ASSERT_TRUE(gates.SetFromMap({{name, false}}).ok());
  EXPECT_FALSE(gates.Enabled(name));
  EXPECT_THAT(logs.Grep(R"("Warning: setting GA feature gate. It will be removed in a future )"
                        R"(release." featureGate=")" +
                        name + R"(" value=false)"),
              ::testing::SizeIs(1));
}

// `name` is a gate off by default that can be switched on.
inline void ExpectGateOffByDefaultCanBeTurnedOn(const std::vector<FeatureSpec>& specs,
                                                const std::string& name) {
  FeatureGates gates(specs);
  EXPECT_FALSE(gates.Enabled(name));
  ASSERT_TRUE(gates.SetFromMap({{name, true}}).ok());
  EXPECT_TRUE(gates.Enabled(name));
}

}  // namespace component::testing
