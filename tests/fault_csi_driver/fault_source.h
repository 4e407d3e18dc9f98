// FaultSource: the live FaultPlan, re-read from <control-dir>/faults.json at
// the start of each call when the file changed, so tests change faults
// without restarting the driver (a restart would look like a crash to the
// attacher).
//
// "Changed" compares mtime, size and inode: mtime alone has the kernel's
// coarse clock granularity, and two writes within one tick would be missed.
// A file that does not parse is logged once and the previous plan stays (a
// half-written file must not wipe the faults); a missing file means no faults.
// Thread-safe.
#pragma once

#include <sys/types.h>

#include <ctime>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "tests/fault_csi_driver/fault_plan.h"

namespace faultdriver {

class FaultSource {
 public:
  // Called (under the source's lock) for each detach_behind_back volume of a
  // newly loaded plan.
  using DetachCallback = std::function<void(const std::string& volume_id)>;

  // An empty `control_dir` disables faults.
  FaultSource(std::string control_dir, DetachCallback on_detach_behind_back);

  // Reloads if needed, then uses up the first matching rule for the call.
  std::optional<FaultRule> Take(std::string_view method, const CallTarget& target);

 private:
  struct FileStamp {
    bool exists = false;
    timespec mtime{};
    off_t size = 0;
    ino_t inode = 0;
    bool operator==(const FileStamp& other) const;
  };

  void ReloadIfChangedLocked();

  const std::string path_;
  const DetachCallback on_detach_behind_back_;

  std::mutex mu_;
  FaultPlan plan_;            // guarded by mu_
  FileStamp loaded_stamp_;    // guarded by mu_: the file plan_ came from
  FileStamp rejected_stamp_;  // guarded by mu_: last unparsable version, not logged twice
};

}  // namespace faultdriver
