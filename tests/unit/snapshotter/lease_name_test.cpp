// docs/snapshots.md §3.2 step 8: the Lease name upstream's replicas compete for.
#include <gtest/gtest.h>

#include "snapshotter/names.h"

namespace snapshotter {
namespace {

TEST(LeaseNameForTest, DotsBecomeDashes) {
  EXPECT_EQ(LeaseNameFor("hostpath.csi.k8s.io"), "external-snapshotter-leader-hostpath-csi-k8s-io");
}

TEST(LeaseNameForTest, SlashesAndOtherCharactersBecomeDashes) {
  EXPECT_EQ(LeaseNameFor("example.com/fancy_driver"),
            "external-snapshotter-leader-example-com-fancy-driver");
}

TEST(LeaseNameForTest, TrailingDashGetsAnX) {
  EXPECT_EQ(LeaseNameFor("driver."), "external-snapshotter-leader-driver-X");
  EXPECT_EQ(LeaseNameFor("driver/"), "external-snapshotter-leader-driver-X");
}

TEST(LeaseNameForTest, UpperCaseIsKept) {
  EXPECT_EQ(LeaseNameFor("Vendor.CSI"), "external-snapshotter-leader-Vendor-CSI");
}

}  // namespace
}  // namespace snapshotter
