// csi_params/reserved_parameters.h: the keys under csi.storage.k8s.io/ never
// reach the driver; a sidecar's known ones go silently, any other is an error.
#include "csi_params/reserved_parameters.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <string_view>

namespace csi_params {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

constexpr std::array<std::string_view, 2> kKnown = {"csi.storage.k8s.io/a-secret-name",
                                                    "csi.storage.k8s.io/a-secret-namespace"};

TEST(StripReservedParameters, KnownReservedKeysGoOthersStay) {
  auto stripped = StripReservedParameters({{"csi.storage.k8s.io/a-secret-name", "creds"},
                                           {"csi.storage.k8s.io/a-secret-namespace", "ns"},
                                           {"tier", "gold"},
                                           {"example.com/csi.storage.k8s.io/x", "kept"}},
                                          kKnown);
  ASSERT_TRUE(stripped.ok()) << stripped.error().message;
  EXPECT_THAT(*stripped,
              ElementsAre(Pair("example.com/csi.storage.k8s.io/x", "kept"), Pair("tier", "gold")));
}

TEST(StripReservedParameters, AnUnknownReservedKeyIsAnErrorNamingTheFirst) {
  auto stripped = StripReservedParameters(
      {{"csi.storage.k8s.io/zeta", "1"}, {"csi.storage.k8s.io/fstype", "ext4"}, {"tier", "gold"}},
      kKnown);
  ASSERT_FALSE(stripped.ok());
  EXPECT_EQ(stripped.error().message,
            "found unknown parameter key \"csi.storage.k8s.io/fstype\" with reserved namespace "
            "csi.storage.k8s.io/");
}

TEST(StripReservedParameters, NoKnownKeysStripsNothingButRefusesTheReservedOnes) {
  auto plain = StripReservedParameters({{"tier", "gold"}}, {});
  ASSERT_TRUE(plain.ok());
  EXPECT_THAT(*plain, ElementsAre(Pair("tier", "gold")));
  EXPECT_FALSE(StripReservedParameters({{"csi.storage.k8s.io/a-secret-name", "x"}}, {}).ok());
}

}  // namespace
}  // namespace csi_params
