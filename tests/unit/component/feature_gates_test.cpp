// The featuregate package's rules, over a table of the test's own: every
// binary passes its table in.
#include "component/feature_gates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

namespace component {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

const std::vector<FeatureSpec> kTable = {
    {kAllAlpha, false, FeatureStage::kAlpha}, {kAllBeta, false, FeatureStage::kBeta},
    {"Alpha", false, FeatureStage::kAlpha},   {"Beta", true, FeatureStage::kBeta},
    {"Done", true, FeatureStage::kGA, true},  {"Old", false, FeatureStage::kDeprecated},
};

TEST(FeatureGatesTest, CustomSpecs) {
  FeatureGates gates({{"B", false, FeatureStage::kBeta}, {"A", true, FeatureStage::kAlpha}});
  EXPECT_THAT(gates.KnownFeatures(), ElementsAre("A=true|false (ALPHA - default=true)",
                                                 "B=true|false (BETA - default=false)"));
  EXPECT_THAT(FeatureGates(std::vector<FeatureSpec>{}).KnownFeatures(), IsEmpty());
}

TEST(FeatureGatesTest, DefaultsUntilSet) {
  FeatureGates gates(kTable);
  EXPECT_FALSE(gates.Enabled("Alpha"));
  EXPECT_TRUE(gates.Enabled("Beta"));
  ASSERT_TRUE(gates.SetFromMap({{"Alpha", true}, {"Beta", false}, {"Old", true}}).ok());
  EXPECT_TRUE(gates.Enabled("Alpha"));
  EXPECT_FALSE(gates.Enabled("Beta"));
  EXPECT_TRUE(gates.Enabled("Old"));
}

TEST(FeatureGatesTest, AFailedSetChangesNothing) {
  FeatureGates gates(kTable);
  base::Status s = gates.SetFromMap({{"Alpha", true}, {"Done", false}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "cannot set feature gate Done to false, feature is locked to true");
  EXPECT_FALSE(gates.Enabled("Alpha"));
  s = gates.SetFromMap({{"Alpha", true}, {"Nope", true}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "unrecognized feature gate: Nope");
  EXPECT_FALSE(gates.Enabled("Alpha"));
}

TEST(FeatureGatesTest, AllBetaLeavesOtherStagesAndExplicitSettingsAlone) {
  FeatureGates gates(kTable);
  ASSERT_TRUE(gates.SetFromMap({{"AllBeta", false}}).ok());
  EXPECT_FALSE(gates.Enabled("Beta"));
  EXPECT_FALSE(gates.Enabled("Alpha"));
  EXPECT_TRUE(gates.Enabled("Done"));

  FeatureGates explicit_wins(kTable);
  ASSERT_TRUE(explicit_wins.SetFromMap({{"AllAlpha", true}, {"Alpha", false}}).ok());
  EXPECT_FALSE(explicit_wins.Enabled("Alpha"));
}

TEST(FeatureGatesTest, GaAndDeprecatedGatesAreNotListed) {
  EXPECT_THAT(FeatureGates(kTable).KnownFeatures(),
              ElementsAre("AllAlpha=true|false (ALPHA - default=false)",
                          "AllBeta=true|false (BETA - default=false)",
                          "Alpha=true|false (ALPHA - default=false)",
                          "Beta=true|false (BETA - default=true)"));
}

TEST(FeatureGatesTest, AskingForAGateOutsideTheTableIsAProgrammingError) {
  EXPECT_THROW(FeatureGates(kTable).Enabled("Nope"), std::logic_error);
}

TEST(FormatFeatureGatesTest, LikeUpstreamsLogLines) {
  EXPECT_EQ(FormatFeatureGates({}), "{}");
  EXPECT_EQ(FormatFeatureGates({{"B", false}, {"A", true}}), R"({"A":true,"B":false})");
}

TEST(SortedByNameTest, SortsBytewiseAsUpstreamLists) {
  std::vector<FeatureSpec> sorted = SortedByName({{"beta", true, FeatureStage::kBeta},
                                                  {"Zeta", false, FeatureStage::kAlpha},
                                                  {"Alpha", false, FeatureStage::kAlpha}});
  std::vector<std::string_view> names;
  for (const FeatureSpec& spec : sorted) names.push_back(spec.name);
  EXPECT_THAT(names, ElementsAre("Alpha", "Zeta", "beta"));
}

}  // namespace
}  // namespace component
