// Each binary starts from its image root (no missing library, no missing
// file) as the image's user: `/<binary> --version` exits 0 and prints this
// build's version.
#include "base/version.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/integration/image/image_root.h"
#include "tests/support/process.h"

namespace image_it {
namespace {

class ImageVersionTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ImageVersionTest, BinaryStartsFromItsImageRootAndPrintsTheVersion) {
  const ImageRoot* image = ImageRoot::Get(GetParam());
  ASSERT_NE(image, nullptr);
  const std::string log = image->root() + "/../version.log";
  auto process =
      testsupport::Process::Spawn({.argv = {image->Launcher({}), "--version"}, .log_file = log});
  ASSERT_TRUE(process.ok()) << process.error().message;
  const int status = (*process)->Wait();
  std::ifstream in(log);
  std::stringstream output;
  output << in.rdbuf();
  EXPECT_EQ(status, 0) << output.str();
  EXPECT_EQ(output.str(), "/" + image->name() + " " + std::string(base::Version()) + "\n");
}

INSTANTIATE_TEST_SUITE_P(Binaries, ImageVersionTest,
                         ::testing::Values(ATTACHER_BIN, SNAPSHOTTER_BIN, SNAPSHOT_CONTROLLER_BIN,
                                           PROVISIONER_BIN, RESIZER_BIN, REGISTRAR_BIN,
                                           CSI_SIDECARS_BIN),
                         [](const auto& info) {
                           std::string name = info.param.substr(info.param.rfind('/') + 1);
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

}  // namespace
}  // namespace image_it
