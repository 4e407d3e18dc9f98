#include "base/file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/temp_dir.h"

namespace base {
namespace {

using ::testing::HasSubstr;

TEST(ReadFileTest, ReturnsExactContentsIncludingBinaryBytes) {
  test::TempDir dir;
  std::string data("line\n\0bytes\xff", 12);
  auto result = ReadFile(dir.Write("f", data));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(*result, data);
}

TEST(ReadFileTest, ReadsFilesLargerThanOneBuffer) {
  test::TempDir dir;
  std::string data(100000, 'x');
  EXPECT_EQ(*ReadFile(dir.Write("big", data)), data);
}

TEST(ReadFileTest, MissingFileErrorNamesPathAndReason) {
  auto result = ReadFile("/nonexistent/dir/file");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message, "open /nonexistent/dir/file: No such file or directory");
}

TEST(ReadFileTest, DirectoryIsAnError) {
  test::TempDir dir;
  auto result = ReadFile(dir.path().string());
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.error().message, HasSubstr(dir.path().string()));
}

}  // namespace
}  // namespace base
