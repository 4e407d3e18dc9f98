#include "tests/fault_csi_driver/fault_source.h"

#include <sys/stat.h>

#include <utility>

#include "base/file.h"
#include "base/log.h"

namespace faultdriver {

bool FaultSource::FileStamp::operator==(const FileStamp& other) const {
  if (exists != other.exists) return false;
  if (!exists) return true;
  return mtime.tv_sec == other.mtime.tv_sec && mtime.tv_nsec == other.mtime.tv_nsec &&
         size == other.size && inode == other.inode;
}

FaultSource::FaultSource(std::string control_dir, DetachCallback on_detach_behind_back)
    : path_(control_dir.empty() ? "" : control_dir + "/faults.json"),
      on_detach_behind_back_(std::move(on_detach_behind_back)) {}

std::optional<FaultRule> FaultSource::Take(std::string_view method, const CallTarget& target) {
  if (path_.empty()) return std::nullopt;
  std::lock_guard lock(mu_);
  ReloadIfChangedLocked();
  return plan_.Take(method, target);
}

void FaultSource::ReloadIfChangedLocked() {
  FileStamp stamp;
  struct stat info {};
  if (::stat(path_.c_str(), &info) == 0) {
    stamp = {.exists = true, .mtime = info.st_mtim, .size = info.st_size, .inode = info.st_ino};
  }
  if (stamp == loaded_stamp_) return;
  if (!stamp.exists) {
    plan_ = FaultPlan();
    loaded_stamp_ = stamp;
    LOG_INFO("Faults cleared").With("file", path_);
    return;
  }
  if (rejected_stamp_.exists && stamp == rejected_stamp_) return;

  base::Result<std::string> text = base::ReadFile(path_);
  base::Result<FaultPlan> plan =
      text.ok() ? FaultPlan::Parse(*text) : base::Result<FaultPlan>(text.error());
  if (!plan.ok()) {
    rejected_stamp_ = stamp;
    LOG_ERROR("Ignoring faults file, keeping the previous faults")
        .With("file", path_)
        .With("err", plan.error().message);
    return;
  }
  plan_ = std::move(*plan);
  loaded_stamp_ = stamp;
  LOG_INFO("Faults loaded").With("file", path_).With("faults", *text);
  for (const std::string& volume_id : plan_.detach_behind_back()) {
    on_detach_behind_back_(volume_id);
  }
}

}  // namespace faultdriver
