// The fixture of the three binaries' Run tests: Run() called as main calls
// it, with the streams captured, no signal handling, a stop source of the
// test's, the termination log in a temporary directory, and the log captured
// at a verbosity of the test's. With it, what the binaries answer alike
// before any work of their own (component/): the version line, an invalid
// logging configuration and, in the two snapshot binaries, whose upstream
// treats --feature-gates alike, a refused gate (docs/attacher.md §1,
// docs/snapshots.md §3.2, §4.1).
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <future>
#include <sstream>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "base/version.h"
#include "component/run_environment.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/csi/fake_driver.h"

namespace cmdtest {

// `RunBinary` is the binary's Run, which takes its own name as the first argument.
template <int (*RunBinary)(const std::vector<std::string>&, component::RunEnvironment)>
class BinaryRunTest : public ::testing::Test {
 protected:
  BinaryRunTest(std::string program, int log_verbosity)
      : program_(std::move(program)), logs_(log_verbosity) {}

  component::RunEnvironment Environment() {
    component::RunEnvironment env;
    env.out = &out_;
    env.err = &err_;
    env.handle_signals = false;
    env.stop = stop_;
    env.termination_log_path = (dir_.path() / "termination-log").string();
    env.on_connection_loss = [] { ADD_FAILURE() << "connection loss reported"; };
    return env;
  }

  // Run with `args` (the program name is added) and env_ or `env`; the exit code.
  int RunWith(std::vector<std::string> args) { return RunWith(std::move(args), env_); }
  int RunWith(std::vector<std::string> args, component::RunEnvironment env) {
    args.insert(args.begin(), program_);
    return RunBinary(args, std::move(env));
  }

  // Runs with `args` on a thread of its own until the log shows `line` or
  // 20 s pass, calls `then`, then requests stop; returns the exit code. A
  // Run that has not returned 20 s after the stop fails the test and aborts:
  // a hung Run cannot be abandoned safely.
  int RunUntilLogged(const std::vector<std::string>& args, std::string_view line,
                     const std::function<void()>& then = {}) {
    auto result = std::async(std::launch::async, [&] { return RunWith(args); });
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (logs_.Grep(line).empty() && std::chrono::steady_clock::now() < give_up &&
           result.wait_for(std::chrono::milliseconds(10)) != std::future_status::ready) {
    }
    EXPECT_THAT(logs_.Grep(line), ::testing::Not(::testing::IsEmpty())) << "never logged: " << line;
    if (then) then();
    stop_.request_stop();
    if (result.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
      ADD_FAILURE() << "Run did not return after stop";
      std::abort();
    }
    return result.get();
  }

  // --version prints "<program> <version>" on stdout and logs no version line.
  void ExpectVersionPrintsProgramAndVersion() {
    EXPECT_EQ(RunWith({"--version"}), 0);
    EXPECT_EQ(out_.str(), program_ + " " + std::string(base::Version()) + "\n");
    EXPECT_THAT(logs_.Grep("\"Version\""), ::testing::IsEmpty());
  }

  // An invalid logging configuration exits 1, before --version is looked at.
  void ExpectInvalidLoggingConfigurationExitsOne() {
    EXPECT_EQ(RunWith({"--logging-format=xml", "--version"}), 1);
    EXPECT_THAT(logs_.Grep("\"LoggingConfiguration is invalid\""), ::testing::SizeIs(1));
    EXPECT_EQ(out_.str(), "");
  }

  // Upstream's klog.Fatal("Error while parsing feature gates: ", err): exit
  // 255 and a fatal line, before --version is looked at.
  void ExpectRefusedFeatureGateIsFatal(const std::string& setting, const std::string& error) {
    EXPECT_EQ(RunWith({"--feature-gates=" + setting, "--version"}), 255);
    auto lines = logs_.Grep("Error while parsing feature gates: " + error);
    ASSERT_THAT(lines, ::testing::SizeIs(1));
    EXPECT_THAT(lines[0], ::testing::StartsWith("F"));
    EXPECT_EQ(out_.str(), "");
  }

  const std::string program_;
  test::TempDir dir_;
  std::ostringstream out_;
  std::ostringstream err_;
  std::stop_source stop_;
  csi::testing::LogCapture logs_;
  component::RunEnvironment env_ = Environment();
};

}  // namespace cmdtest
