// docs/attacher.md §5.3 step 5: PV access modes -> CSI access mode, as
// csi-lib-utils' ToCSIAccessMode maps them, with its exact error strings.
#include "csi_params/access_modes.h"

#include <gtest/gtest.h>

namespace csi_params {
namespace {

struct AccessModeCase {
  std::string name = {};
  std::vector<std::string> modes = {};
  bool single_node_multi_writer = false;
  AccessMode want = AccessMode::kUnknown;
  std::string want_error = {};  // empty: success
};

class ToCsiAccessModeTest : public ::testing::TestWithParam<AccessModeCase> {};

TEST_P(ToCsiAccessModeTest, Maps) {
  const AccessModeCase& c = GetParam();
  auto mode = ToCsiAccessMode(c.modes, c.single_node_multi_writer);
  if (c.want_error.empty()) {
    ASSERT_TRUE(mode.ok()) << mode.error().message;
    EXPECT_EQ(*mode, c.want);
  } else {
    ASSERT_FALSE(mode.ok());
    EXPECT_EQ(mode.error().message, c.want_error);
  }
}

const char kRwopMixed[] =
    "Kubernetes does not support use of ReadWriteOncePod with other access modes on the same "
    "PersistentVolume";

INSTANTIATE_TEST_SUITE_P(
    Cases, ToCsiAccessModeTest,
    ::testing::ValuesIn(std::vector<AccessModeCase>{
        {"RwoIsSingleNodeWriter", {"ReadWriteOnce"}, false, AccessMode::kSingleNodeWriter},
        {"RwoWithMultiWriterCapIsSingleNodeMultiWriter",
         {"ReadWriteOnce"},
         true,
         AccessMode::kSingleNodeMultiWriter},
        {"RwopIsSingleNodeWriter", {"ReadWriteOncePod"}, false, AccessMode::kSingleNodeWriter},
        {"RwopWithMultiWriterCapIsSingleNodeSingleWriter",
         {"ReadWriteOncePod"},
         true,
         AccessMode::kSingleNodeSingleWriter},
        {"RwopWithRwoFails", {"ReadWriteOnce", "ReadWriteOncePod"}, false, {}, kRwopMixed},
        {"RwopRepeatedFails", {"ReadWriteOncePod", "ReadWriteOncePod"}, true, {}, kRwopMixed},
        {"RwxIsMultiNodeMultiWriter", {"ReadWriteMany"}, false, AccessMode::kMultiNodeMultiWriter},
        {"RwxWinsOverRoxAndRwo",
         {"ReadOnlyMany", "ReadWriteOnce", "ReadWriteMany"},
         false,
         AccessMode::kMultiNodeMultiWriter},
        {"RoxIsMultiNodeReaderOnly", {"ReadOnlyMany"}, false, AccessMode::kMultiNodeReaderOnly},
        {"RoxWithRwoFails",
         {"ReadOnlyMany", "ReadWriteOnce"},
         false,
         {},
         "CSI does not support ReadOnlyMany and ReadWriteOnce on the same PersistentVolume"},
        {"NoneFails", {}, false, {}, "unsupported AccessMode combination: []"},
        {"UnknownModeFails",
         {"ReadSometimes", "Never"},
         false,
         {},
         "unsupported AccessMode combination: [ReadSometimes Never]"},
    }),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace csi_params
