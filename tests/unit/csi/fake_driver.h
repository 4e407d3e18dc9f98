// Test support for the csi unit tests: a CSI driver served in-process by
// gRPC on a unix socket in a fresh temporary directory, answering from
// per-method scripts, plus a log capture.
#pragma once

#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <grpcpp/server_context.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/log.h"
#include "csi/proto/csi.grpc.pb.h"
#include "tests/support/log_capture.h"

namespace csi::testing {

template <typename Request, typename Response>
using Script = std::function<grpc::Status(grpc::ServerContext*, const Request&, Response*)>;

// Blocks until the caller gives up on the call (its deadline) or 5 s pass.
inline void WaitForCancel(grpc::ServerContext* context) {
  auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!context->IsCancelled() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

class FakeDriver {
 public:
  // Scripts; set them before the calls they answer. Unset ones answer OK
  // with an empty response.
  Script<v1::GetPluginInfoRequest, v1::GetPluginInfoResponse> get_plugin_info;
  Script<v1::GetPluginCapabilitiesRequest, v1::GetPluginCapabilitiesResponse>
      get_plugin_capabilities;
  Script<v1::ProbeRequest, v1::ProbeResponse> probe;
  Script<v1::ControllerPublishVolumeRequest, v1::ControllerPublishVolumeResponse> publish;
  Script<v1::ControllerUnpublishVolumeRequest, v1::ControllerUnpublishVolumeResponse> unpublish;
  Script<v1::ListVolumesRequest, v1::ListVolumesResponse> list_volumes;
  Script<v1::ControllerGetCapabilitiesRequest, v1::ControllerGetCapabilitiesResponse>
      controller_get_capabilities;
  Script<v1::CreateSnapshotRequest, v1::CreateSnapshotResponse> create_snapshot;
  Script<v1::DeleteSnapshotRequest, v1::DeleteSnapshotResponse> delete_snapshot;
  Script<v1::ListSnapshotsRequest, v1::ListSnapshotsResponse> list_snapshots;
  Script<v1::GroupControllerGetCapabilitiesRequest, v1::GroupControllerGetCapabilitiesResponse>
      group_controller_get_capabilities;
  Script<v1::CreateVolumeGroupSnapshotRequest, v1::CreateVolumeGroupSnapshotResponse>
      create_group_snapshot;
  Script<v1::GetVolumeGroupSnapshotRequest, v1::GetVolumeGroupSnapshotResponse> get_group_snapshot;
  Script<v1::DeleteVolumeGroupSnapshotRequest, v1::DeleteVolumeGroupSnapshotResponse>
      delete_group_snapshot;

  FakeDriver() : dir_(MakeTempDir()), identity_(this), controller_(this), group_controller_(this) {}
  ~FakeDriver() {
    Stop();
    std::filesystem::remove_all(dir_);
  }

  const std::string& dir() const { return dir_; }
  std::string socket_path() const { return dir_ + "/csi.sock"; }

  void Start() {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("unix:" + socket_path(), grpc::InsecureServerCredentials());
    builder.RegisterService(&identity_);
    builder.RegisterService(&controller_);
    builder.RegisterService(&group_controller_);
    server_ = builder.BuildAndStart();
  }
  // The driver goes away: open connections are closed.
  void Stop() {
    if (server_ == nullptr) return;
    server_->Shutdown(std::chrono::system_clock::now());
    server_->Wait();
    server_.reset();
  }

  int calls() const { return calls_; }

 private:
  static std::string MakeTempDir() {
    char pattern[] = "/tmp/csiXXXXXX";  // short: unix socket paths max ~107 bytes
    return ::mkdtemp(pattern);
  }

  template <typename Request, typename Response>
  grpc::Status Run(const Script<Request, Response>& script, grpc::ServerContext* context,
                   const Request* request, Response* response) {
    ++calls_;
    return script ? script(context, *request, response) : grpc::Status::OK;
  }

  class Identity : public v1::Identity::Service {
   public:
    explicit Identity(FakeDriver* d) : d_(d) {}
    grpc::Status GetPluginInfo(grpc::ServerContext* c, const v1::GetPluginInfoRequest* req,
                               v1::GetPluginInfoResponse* resp) override {
      return d_->Run(d_->get_plugin_info, c, req, resp);
    }
    grpc::Status GetPluginCapabilities(grpc::ServerContext* c,
                                       const v1::GetPluginCapabilitiesRequest* req,
                                       v1::GetPluginCapabilitiesResponse* resp) override {
      return d_->Run(d_->get_plugin_capabilities, c, req, resp);
    }
    grpc::Status Probe(grpc::ServerContext* c, const v1::ProbeRequest* req,
                       v1::ProbeResponse* resp) override {
      return d_->Run(d_->probe, c, req, resp);
    }

   private:
    FakeDriver* d_;
  };

  class Controller : public v1::Controller::Service {
   public:
    explicit Controller(FakeDriver* d) : d_(d) {}
    grpc::Status ControllerPublishVolume(grpc::ServerContext* c,
                                         const v1::ControllerPublishVolumeRequest* req,
                                         v1::ControllerPublishVolumeResponse* resp) override {
      return d_->Run(d_->publish, c, req, resp);
    }
    grpc::Status ControllerUnpublishVolume(grpc::ServerContext* c,
                                           const v1::ControllerUnpublishVolumeRequest* req,
                                           v1::ControllerUnpublishVolumeResponse* resp) override {
      return d_->Run(d_->unpublish, c, req, resp);
    }
    grpc::Status ListVolumes(grpc::ServerContext* c, const v1::ListVolumesRequest* req,
                             v1::ListVolumesResponse* resp) override {
      return d_->Run(d_->list_volumes, c, req, resp);
    }
    grpc::Status ControllerGetCapabilities(grpc::ServerContext* c,
                                           const v1::ControllerGetCapabilitiesRequest* req,
                                           v1::ControllerGetCapabilitiesResponse* resp) override {
      return d_->Run(d_->controller_get_capabilities, c, req, resp);
    }
    grpc::Status CreateSnapshot(grpc::ServerContext* c, const v1::CreateSnapshotRequest* req,
                                v1::CreateSnapshotResponse* resp) override {
      return d_->Run(d_->create_snapshot, c, req, resp);
    }
    grpc::Status DeleteSnapshot(grpc::ServerContext* c, const v1::DeleteSnapshotRequest* req,
                                v1::DeleteSnapshotResponse* resp) override {
      return d_->Run(d_->delete_snapshot, c, req, resp);
    }
    grpc::Status ListSnapshots(grpc::ServerContext* c, const v1::ListSnapshotsRequest* req,
                               v1::ListSnapshotsResponse* resp) override {
      return d_->Run(d_->list_snapshots, c, req, resp);
    }

   private:
    FakeDriver* d_;
  };

  class GroupController : public v1::GroupController::Service {
   public:
    explicit GroupController(FakeDriver* d) : d_(d) {}
    grpc::Status GroupControllerGetCapabilities(
        grpc::ServerContext* c, const v1::GroupControllerGetCapabilitiesRequest* req,
        v1::GroupControllerGetCapabilitiesResponse* resp) override {
      return d_->Run(d_->group_controller_get_capabilities, c, req, resp);
    }
    grpc::Status CreateVolumeGroupSnapshot(grpc::ServerContext* c,
                                           const v1::CreateVolumeGroupSnapshotRequest* req,
                                           v1::CreateVolumeGroupSnapshotResponse* resp) override {
      return d_->Run(d_->create_group_snapshot, c, req, resp);
    }
    grpc::Status GetVolumeGroupSnapshot(grpc::ServerContext* c,
                                        const v1::GetVolumeGroupSnapshotRequest* req,
                                        v1::GetVolumeGroupSnapshotResponse* resp) override {
      return d_->Run(d_->get_group_snapshot, c, req, resp);
    }
    grpc::Status DeleteVolumeGroupSnapshot(grpc::ServerContext* c,
                                           const v1::DeleteVolumeGroupSnapshotRequest* req,
                                           v1::DeleteVolumeGroupSnapshotResponse* resp) override {
      return d_->Run(d_->delete_group_snapshot, c, req, resp);
    }

   private:
    FakeDriver* d_;
  };

  std::string dir_;
  Identity identity_;
  Controller controller_;
  GroupController group_controller_;
  std::unique_ptr<grpc::Server> server_;
  std::atomic<int> calls_{0};
};

// Log capture is not CSI's: tests/support/log_capture.h.
using LogCapture = testsupport::LogCapture;

}  // namespace csi::testing
