// ChooseSize (docs/resizer.md §4.3): the size asked of the driver for each
// PV-vs-request case and allocatedResourceStatuses state.
#include "resizer/size_choice.h"

#include <gtest/gtest.h>

#include "resizer/names.h"

namespace resizer {
namespace {

constexpr int64_t kGi = int64_t{1} << 30;
const Size kOne{"1Gi", kGi};
const Size kTwo{"2Gi", 2 * kGi};
const Size kThree{"3Gi", 3 * kGi};

struct SizeCase {
  std::string name;
  SizeInputs in;
  std::optional<Size> want;
};

class ChooseSizeTest : public ::testing::TestWithParam<SizeCase> {};

TEST_P(ChooseSizeTest, AsksForTheSizeOfTheRecoveryTable) {
  EXPECT_EQ(ChooseSize(GetParam().in), GetParam().want);
}

std::string NameOf(const ::testing::TestParamInfo<SizeCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(
    PvSmallerThanRequest, ChooseSizeTest,
    ::testing::Values(
        SizeCase{"NoStateAsksForTheRequest", {.pv_bytes = kGi, .requested = kTwo}, kTwo},
        SizeCase{"InfeasibleAsksForTheLoweredRequest",
                 {.pv_bytes = kGi,
                  .requested = kTwo,
                  .allocated = kThree,
                  .allocated_status = std::string(kControllerResizeInfeasible)},
                 kTwo},
        SizeCase{"InProgressKeepsTheAllocatedSize",
                 {.pv_bytes = kGi,
                  .requested = kTwo,
                  .allocated = kThree,
                  .allocated_status = std::string(kControllerResizeInProgress)},
                 kThree},
        SizeCase{"InProgressAfterAFinalErrorAsksForTheRequest",
                 {.pv_bytes = kGi,
                  .requested = kTwo,
                  .allocated = kThree,
                  .allocated_status = std::string(kControllerResizeInProgress),
                  .saw_final_error = true},
                 kTwo},
        SizeCase{"NodePendingWithPvAtAllocatedWaitsForKubelet",
                 {.pv_bytes = kTwo.bytes,
                  .requested = kThree,
                  .allocated = kTwo,
                  .allocated_status = std::string(kNodeResizePending)},
                 std::nullopt},
        SizeCase{"NodePendingWithPvBelowAllocatedAsksForAllocated",
                 {.pv_bytes = kGi,
                  .requested = kThree,
                  .allocated = kTwo,
                  .allocated_status = std::string(kNodeResizeInProgress)},
                 kTwo},
        SizeCase{"NodeInfeasibleAsksForAllocated",
                 {.pv_bytes = kGi,
                  .requested = kThree,
                  .allocated = kTwo,
                  .allocated_status = std::string(kNodeResizeInfeasible)},
                 kTwo}),
    NameOf);

INSTANTIATE_TEST_SUITE_P(
    PvHoldsTheRequest, ChooseSizeTest,
    ::testing::Values(
        SizeCase{"NodePendingWaitsForKubelet",
                 {.pv_bytes = kTwo.bytes,
                  .requested = kTwo,
                  .allocated = kTwo,
                  .allocated_status = std::string(kNodeResizePending)},
                 std::nullopt},
        SizeCase{"ControllerInfeasibleAsksForAllocated",
                 {.pv_bytes = kThree.bytes,
                  .requested = kTwo,
                  .allocated = kThree,
                  .allocated_status = std::string(kControllerResizeInfeasible)},
                 kThree},
        SizeCase{"NodeInfeasibleWithANodeOnlyDriverAsksForTheRequest",
                 {.pv_bytes = kThree.bytes,
                  .requested = kTwo,
                  .allocated = kThree,
                  .allocated_status = std::string(kNodeResizeInfeasible),
                  .controller_expands = false},
                 kTwo},
        SizeCase{"NoStateWithAllocatedAsksForAllocated",
                 {.pv_bytes = kThree.bytes, .requested = kTwo, .allocated = kThree},
                 kThree},
        SizeCase{"NoStateNoAllocatedWithFsResizePendingWaits",
                 {.pv_bytes = kThree.bytes, .requested = kTwo, .file_system_resize_pending = true},
                 std::nullopt},
        SizeCase{"NoStateNoAllocatedAsksForTheRequest",
                 {.pv_bytes = kThree.bytes, .requested = kTwo},
                 kTwo}),
    NameOf);

}  // namespace
}  // namespace resizer
