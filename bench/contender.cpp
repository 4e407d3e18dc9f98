#include "bench/contender.h"

namespace bench {

base::Result<std::unique_ptr<Contender>> Contender::Spawn(std::vector<Binary> binaries) {
  std::unique_ptr<Contender> contender(new Contender());
  for (auto& binary : binaries) {
    auto process = testsupport::Process::Spawn({.argv = std::move(binary.argv),
                                                .env = std::move(binary.env),
                                                .log_file = binary.log_file});
    if (!process.ok()) return process.error().Wrap("starting the " + binary.role + " binary");
    contender->processes_.push_back({binary.role, std::move(*process)});
  }
  return contender;
}

std::unique_ptr<Contender> Contender::InProcess(std::unique_ptr<InProcessFloor> floor) {
  std::unique_ptr<Contender> contender(new Contender());
  contender->floor_ = std::move(floor);
  return contender;
}

std::vector<Contender::Member> Contender::Processes() const {
  std::vector<Member> members;
  for (const auto& running : processes_) members.push_back({running.role, running.process->pid()});
  return members;
}

std::vector<pid_t> Contender::Pids() const {
  std::vector<pid_t> pids;
  for (const auto& running : processes_) pids.push_back(running.process->pid());
  return pids;
}

std::string Contender::LogTail() const {
  std::string tail;
  for (const auto& running : processes_) {
    tail += "---- " + (running.role.empty() ? std::string("log") : running.role + " log") +
            " tail ----\n" + running.process->LogTail(30);
  }
  return tail;
}

void Contender::Stop() {
  floor_.reset();
  for (auto& running : processes_) running.process->Stop();
}

}  // namespace bench
