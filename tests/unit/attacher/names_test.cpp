#include "attacher/names.h"

#include <gtest/gtest.h>

namespace attacher {
namespace {

TEST(Names, FinalizerSanitizesDriverNameLikeUpstream) {
  EXPECT_EQ(FinalizerFor("ebs.csi.aws.com"), "external-attacher/ebs-csi-aws-com");
  EXPECT_EQ(FinalizerFor("hostpath.csi.k8s.io"), "external-attacher/hostpath-csi-k8s-io");
  EXPECT_EQ(FinalizerFor("weird_driver."), "external-attacher/weird-driver-X");
}

TEST(Names, LeaseNameIsSanitizedAsAWhole) {
  EXPECT_EQ(LeaseNameFor("ebs.csi.aws.com"), "external-attacher-leader-ebs-csi-aws-com");
  EXPECT_EQ(LeaseNameFor("a/b"), "external-attacher-leader-a-b");
}

}  // namespace
}  // namespace attacher
