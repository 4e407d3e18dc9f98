// DriverFixture: runs the fault-csi-driver binary on a socket in a fresh temp
// directory (with --state-file and --control-dir there) and talks to it with
// the plain generated CSI stubs, so the tests see exactly what an attacher
// would.
#pragma once

#include <gmock/gmock.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "csi/proto/csi.grpc.pb.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace faultdriver {

inline constexpr char kNode[] = "node-1";
// The caller's deadline in hang tests: short enough to keep them quick; what
// the caller sees does not depend on it.
inline constexpr auto kShortDeadline = std::chrono::milliseconds(300);

class DriverFixture : public ::testing::Test {
 protected:
  std::string SocketPath() const { return (dir_.path() / "csi.sock").string(); }
  std::string StatePath() const { return (dir_.path() / "state.json").string(); }
  std::string LogPath() const { return (dir_.path() / "driver.log").string(); }
  std::filesystem::path ControlDir() const { return dir_.path() / "control"; }

  // Starts the driver with --node-id=node-1, LIST_VOLUMES(_PUBLISHED_NODES)
  // advertised, plus `flags` (later flags win), and connects.
  void StartDriver(std::vector<std::string> flags = {}) {
    std::filesystem::create_directories(ControlDir());
    std::vector<std::string> argv = {
        FAULT_CSI_DRIVER_PATH,
        "--endpoint=unix://" + SocketPath(),
        "--node-id=" + std::string(kNode),
        "--capabilities=PUBLISH_UNPUBLISH_VOLUME,LIST_VOLUMES,LIST_VOLUMES_PUBLISHED_NODES",
        "--state-file=" + StatePath(),
        "--control-dir=" + ControlDir().string()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    auto spawned = testsupport::Process::Spawn({.argv = argv, .log_file = LogPath()});
    ASSERT_TRUE(spawned.ok()) << spawned.error().message;
    driver_ = std::move(*spawned);

    // Dialing before the socket exists would put the channel into gRPC's
    // reconnect backoff (1 s and growing), so wait for the file first.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!std::filesystem::is_socket(SocketPath())) {
      ASSERT_TRUE(driver_->IsRunning()) << driver_->LogTail(20);
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << driver_->LogTail(20);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    channel_ = grpc::CreateChannel("unix:" + SocketPath(), grpc::InsecureChannelCredentials());
    ASSERT_TRUE(
        channel_->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(10)))
        << driver_->LogTail(20);
    identity_ = csi::v1::Identity::NewStub(channel_);
    controller_ = csi::v1::Controller::NewStub(channel_);
  }

  // Every run must end cleanly on SIGTERM (under ASan this also catches
  // memory errors and leaks in the driver).
  void TearDown() override {
    controller_.reset();
    identity_.reset();
    channel_.reset();  // an open connection would hold up the driver's shutdown
    if (driver_ == nullptr) return;
    driver_->Stop();
    EXPECT_EQ(driver_->exit_status(), 0) << driver_->LogTail(30);
  }

  // Replaces faults.json the way tests should: write elsewhere, rename over.
  void WriteFaults(const std::string& json) {
    const std::filesystem::path temp = dir_.path() / "faults.json.tmp";
    std::ofstream(temp) << json;
    std::filesystem::rename(temp, ControlDir() / "faults.json");
  }

  nlohmann::json ReadState() const { return nlohmann::json::parse(ReadText(StatePath())); }

  static std::string ReadText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  // Waits until the driver's log holds `text`.
  void WaitForLog(const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (ReadText(LogPath()).find(text) == std::string::npos) {
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "no \"" << text << "\" in the log";
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  // The state once it holds `count` calls: a call that outlived its caller
  // (a hang) is recorded after the caller has its answer, maybe before the
  // state file exists at all.
  nlohmann::json WaitForRecordedCalls(size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    nlohmann::json state;
    while (true) {
      if (std::filesystem::exists(StatePath())) state = ReadState();
      if (state.contains("calls") && state["calls"].size() >= count) return state;
      if (std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << "the state file never held " << count << " calls: " << state.dump();
        return state;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  // A generous deadline by default; hang faults last until a short one passes.
  static std::unique_ptr<grpc::ClientContext> Context(
      std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    auto context = std::make_unique<grpc::ClientContext>();
    context->set_deadline(std::chrono::system_clock::now() + timeout);
    return context;
  }

  static csi::v1::ControllerPublishVolumeRequest PublishRequest(
      const std::string& volume_id, const std::string& node_id = kNode) {
    csi::v1::ControllerPublishVolumeRequest request;
    request.set_volume_id(volume_id);
    request.set_node_id(node_id);
    request.mutable_volume_capability()->mutable_mount()->set_fs_type("ext4");
    request.mutable_volume_capability()->mutable_access_mode()->set_mode(
        csi::v1::VolumeCapability::AccessMode::SINGLE_NODE_WRITER);
    return request;
  }

  grpc::Status Publish(const csi::v1::ControllerPublishVolumeRequest& request,
                       csi::v1::ControllerPublishVolumeResponse* response = nullptr) {
    csi::v1::ControllerPublishVolumeResponse ignored;
    return controller_->ControllerPublishVolume(Context().get(), request,
                                                response ? response : &ignored);
  }
  grpc::Status Publish(const std::string& volume_id, const std::string& node_id = kNode) {
    return Publish(PublishRequest(volume_id, node_id));
  }

  grpc::Status Unpublish(const std::string& volume_id, const std::string& node_id = kNode) {
    csi::v1::ControllerUnpublishVolumeRequest request;
    request.set_volume_id(volume_id);
    request.set_node_id(node_id);
    csi::v1::ControllerUnpublishVolumeResponse response;
    return controller_->ControllerUnpublishVolume(Context().get(), request, &response);
  }

  // volume_id -> published_node_ids, all pages.
  std::map<std::string, std::vector<std::string>> ListAll() {
    std::map<std::string, std::vector<std::string>> volumes;
    csi::v1::ListVolumesRequest request;
    do {
      csi::v1::ListVolumesResponse response;
      grpc::Status status = controller_->ListVolumes(Context().get(), request, &response);
      EXPECT_TRUE(status.ok()) << status.error_message();
      if (!status.ok()) break;
      for (const auto& entry : response.entries()) {
        volumes[entry.volume().volume_id()] = {entry.status().published_node_ids().begin(),
                                               entry.status().published_node_ids().end()};
      }
      request.set_starting_token(response.next_token());
    } while (!request.starting_token().empty());
    return volumes;
  }

  test::TempDir dir_;
  std::unique_ptr<testsupport::Process> driver_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<csi::v1::Identity::Stub> identity_;
  std::unique_ptr<csi::v1::Controller::Stub> controller_;
};

using Nodes = std::vector<std::string>;

}  // namespace faultdriver
