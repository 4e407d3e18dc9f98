#include "kube/api/names.h"

#include <gtest/gtest.h>

namespace kube {
namespace {

TEST(Names, SanitizeKeepsAlphanumericsAndDashes) {
  EXPECT_EQ(SanitizeName("Abc-123"), "Abc-123");
  EXPECT_EQ(SanitizeName("x-"), "x-X");
  EXPECT_EQ(SanitizeName("é"), "--X");
}

}  // namespace
}  // namespace kube
