// The files of one integration test case: a directory of its own, named
// after the running gtest case, the logs of the processes it starts there,
// and their tails printed when the case failed, so that a failure explains
// itself. Header-only: it reports through gtest, which test_support does not
// link.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/process.h"

namespace testsupport {

// <parent>/<suite>.<test> of the running case ('/' of parameterized names
// made '_'), emptied and created.
inline std::string FreshTestCaseDir(const std::string& parent) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  const std::string dir = parent + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// `argv` with `env`, logged to <dir>/<name>.log; null, and the test fails,
// if it cannot start.
inline std::unique_ptr<Process> SpawnLogged(
    const std::string& dir, const std::string& name, std::vector<std::string> argv,
    std::vector<std::pair<std::string, std::string>> env = {}) {
  auto process = Process::Spawn(
      {.argv = std::move(argv), .env = std::move(env), .log_file = dir + "/" + name + ".log"});
  if (!process.ok()) {
    ADD_FAILURE() << "start " << name << ": " << process.error().message;
    return nullptr;
  }
  return std::move(process).value();
}

// The last `lines` lines of the process's log on stderr, headed by `label`.
inline void PrintLogTail(const std::string& label, const Process& process, int lines) {
  std::cerr << "---- " << label << " log tail (" << process.log_file() << ") ----\n"
            << process.LogTail(lines) << "\n";
}

}  // namespace testsupport
