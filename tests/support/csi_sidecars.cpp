#include "tests/support/csi_sidecars.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "tests/support/files.h"
#include "tests/support/source_dir.h"

namespace testsupport {

base::Result<std::string> CsiSidecarsAs(std::string_view controller,
                                        const std::string& csi_sidecars_bin) {
  const std::filesystem::path bin(csi_sidecars_bin);
  const std::string launcher =
      (bin.parent_path() / ("csi-sidecars-as-" + std::string(controller))).string();
  const std::string script = "#!/bin/sh\nexec '" + SourcePath("tests/support/as_csi_sidecars.sh") +
                             "' " + std::string(controller) + " '" + csi_sidecars_bin +
                             "' \"$@\"\n";
  // Test processes may run side by side: each writes its own copy and
  // renames it over the launcher, which is the same text.
  const std::string temp = launcher + "." + std::to_string(getpid());
  if (base::Status s = WriteFile(temp, script, 0755); !s.ok()) return s.error();
  if (std::rename(temp.c_str(), launcher.c_str()) != 0) {
    return base::Error("cannot install " + launcher);
  }
  return launcher;
}

BinaryUnderTest CsiSidecarsUnderTest(std::string controller, std::string csi_sidecars_bin) {
  return {.name = "CsiSidecars", .binary = [controller, csi_sidecars_bin] {
            return CsiSidecarsAs(controller, csi_sidecars_bin);
          }};
}

}  // namespace testsupport
