#include "tests/fault_csi_driver/call_recorder.h"

#include <cstdio>
#include <fstream>
#include <utility>

#include "base/log.h"
#include "tests/fault_csi_driver/status_codes.h"

namespace faultdriver {

CallRecorder::CallRecorder(std::string state_file, std::string driver_name,
                           const VolumeRegistry* volumes, const SnapshotRegistry* snapshots)
    : state_file_(std::move(state_file)),
      driver_name_(std::move(driver_name)),
      volumes_(volumes),
      snapshots_(snapshots) {}

void CallRecorder::Record(CallRecord call) {
  const std::string code = StatusCodeName(call.code);
  LOG_INFO(call.method)
      .With("request", call.request.dump())
      .With("response", call.response.dump())
      .With("code", code)
      .With("message", call.message)
      .With("injected", call.injected)
      .With("duration", call.duration);
  if (state_file_.empty()) return;

  std::unique_lock lock(mu_);
  nlohmann::json entry = {{"seq", ++call_count_},
                          {"method", call.method},
                          {"request", std::move(call.request)},
                          {"response", std::move(call.response)},
                          {"code", code},
                          {"message", call.message},
                          {"injected", call.injected}};
  if (!calls_text_.empty()) calls_text_ += ",\n";
  calls_text_ += "    " + entry.dump();
  const int64_t mine = call_count_;
  while (written_count_ < mine) {
    if (writing_) {
      written_.wait(lock);
      continue;
    }
    writing_ = true;
    const int64_t covered = call_count_;
    const std::string text = RenderLocked();
    lock.unlock();
    WriteStateFile(text);
    lock.lock();
    writing_ = false;
    written_count_ = covered;
    written_.notify_all();
  }
}

std::string CallRecorder::RenderLocked() const {
  const nlohmann::json volumes = volumes_->ToJson();
  const nlohmann::json snapshots = snapshots_->ToJson();
  return "{\n  \"driver\": " + nlohmann::json(driver_name_).dump() +
         ",\n  \"attachments\": " + volumes["attachments"].dump() +
         ",\n  \"volumes\": " + volumes["volumes"].dump() +
         ",\n  \"existing_volumes\": " + volumes["existing_volumes"].dump() +
         ",\n  \"volumes_by_name\": " + volumes["volumes_by_name"].dump() +
         ",\n  \"existing_snapshots\": " + snapshots["existing_snapshots"].dump() +
         ",\n  \"snapshots\": " + snapshots["snapshots"].dump() +
         ",\n  \"existing_group_snapshots\": " + snapshots["existing_group_snapshots"].dump() +
         ",\n  \"group_snapshots\": " + snapshots["group_snapshots"].dump() +
         ",\n  \"calls\": [\n" + calls_text_ + "\n  ]\n}\n";
}

void CallRecorder::WriteStateFile(const std::string& text) const {
  const std::string temp = state_file_ + ".tmp";
  {
    std::ofstream out(temp, std::ios::trunc);
    out << text;
    if (!out) {
      LOG_ERROR("Cannot write state file").With("file", temp);
      return;
    }
  }
  if (std::rename(temp.c_str(), state_file_.c_str()) != 0) {
    LOG_ERROR("Cannot replace state file").With("file", state_file_);
  }
}

}  // namespace faultdriver
