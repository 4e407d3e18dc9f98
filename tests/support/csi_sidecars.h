// csi-sidecars as one controller sidecar, for the sidecars' own suites: a
// launcher (tests/support/as_csi_sidecars.sh) that takes the sidecar's
// command line and runs csi-sidecars --controllers=<controller> with it.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "tests/support/binary_under_test.h"

namespace testsupport {

// The launcher's path: a script beside `csi_sidecars_bin` (written once,
// atomically) that runs it as `controller`.
base::Result<std::string> CsiSidecarsAs(std::string_view controller,
                                        const std::string& csi_sidecars_bin);

// That launcher as a binary under test, named "CsiSidecars" in test names.
BinaryUnderTest CsiSidecarsUnderTest(std::string controller, std::string csi_sidecars_bin);

}  // namespace testsupport
