#include "tests/support/source_dir.h"

namespace testsupport {

std::string SourcePath(std::string_view relative) {
  return std::string(CSI_SIDECARS_SOURCE_DIR "/").append(relative);
}

}  // namespace testsupport
