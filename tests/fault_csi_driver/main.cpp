// fault-csi-driver: a CSI Identity + Controller + GroupController server
// (and NodeGetInfo) for tests and benchmarks of the sidecars that can inject
// the faults real drivers cannot be made to produce on demand. Usage and
// faults.json format: README.md.
#include <grpcpp/grpcpp.h>
#include <signal.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>

#include "base/log.h"
#include "tests/fault_csi_driver/call_recorder.h"
#include "tests/fault_csi_driver/call_scope.h"
#include "tests/fault_csi_driver/controller_service.h"
#include "tests/fault_csi_driver/fault_source.h"
#include "tests/fault_csi_driver/group_controller_service.h"
#include "tests/fault_csi_driver/identity_service.h"
#include "tests/fault_csi_driver/node_service.h"
#include "tests/fault_csi_driver/options.h"
#include "tests/fault_csi_driver/shutdown_signal.h"
#include "tests/fault_csi_driver/snapshot_registry.h"
#include "tests/fault_csi_driver/volume_registry.h"

namespace {

// How long in-flight calls get to finish on SIGTERM. gRPC waits out the whole
// deadline while any client keeps its connection open (it only drops idle
// connections when the deadline passes), so it is short: injected sleeps end
// at once on shutdown and the remaining work is in memory.
constexpr auto kShutdownGrace = std::chrono::milliseconds(500);

// A socket left by a previous (crashed, SIGKILLed) run would make bind fail.
bool PrepareSocketPath(const std::string& path) {
  std::error_code error;
  std::filesystem::path socket(path);
  if (socket.has_parent_path()) std::filesystem::create_directories(socket.parent_path(), error);
  auto status = std::filesystem::symlink_status(socket, error);
  if (!std::filesystem::exists(status)) return true;
  if (!std::filesystem::is_socket(status)) {
    LOG_ERROR("Endpoint path exists and is not a socket").With("path", path);
    return false;
  }
  std::filesystem::remove(socket, error);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  base::Result<faultdriver::DriverOptions> parsed = faultdriver::ParseDriverOptions(argc, argv);
  if (!parsed.ok()) return parsed.error().code;
  const faultdriver::DriverOptions& options = *parsed;

  // Blocked before gRPC starts its threads, so only sigwait below sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  faultdriver::ShutdownSignal shutdown;
  faultdriver::VolumeRegistry registry;
  for (const auto& [volume_id, capacity] : options.volumes) registry.Declare(volume_id, capacity);
  faultdriver::SnapshotRegistry snapshots;
  faultdriver::FaultSource faults(options.control_dir, [&registry](const std::string& volume_id) {
    LOG_INFO("Detaching behind the attacher's back").With("volume_id", volume_id);
    registry.DetachBehindBack(volume_id);
  });
  faultdriver::CallRecorder recorder(options.state_file, options.driver_name, &registry,
                                     &snapshots);
  const faultdriver::DriverContext driver{&options, &registry, &snapshots,
                                          &faults,  &recorder, &shutdown};
  faultdriver::IdentityService identity(driver);
  faultdriver::ControllerService controller(driver);
  faultdriver::GroupControllerService group_controller(driver);
  faultdriver::NodeService node(driver);

  if (!PrepareSocketPath(options.socket_path)) return 1;
  grpc::ServerBuilder builder;
  builder.AddListeningPort("unix:" + options.socket_path, grpc::InsecureServerCredentials());
  builder.RegisterService(&identity);
  builder.RegisterService(&node);
  if (options.controller_service) builder.RegisterService(&controller);
  if (options.group_controller_service) builder.RegisterService(&group_controller);
  // The sync server grows its thread pool on demand (the default resource
  // quota has no thread limit), so slow calls never queue behind each other.
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr) {
    LOG_ERROR("Cannot serve").With("endpoint", options.socket_path);
    return 1;
  }
  LOG_INFO("Serving")
      .With("endpoint", options.socket_path)
      .With("name", options.driver_name)
      .With("controllerService", options.controller_service)
      .With("groupControllerService", options.group_controller_service);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  LOG_INFO("Shutting down").With("signal", strsignal(signal_number));
  shutdown.Trigger();
  server->Shutdown(std::chrono::system_clock::now() + kShutdownGrace);
  server->Wait();
  std::error_code ignored;
  std::filesystem::remove(options.socket_path, ignored);
  return 0;
}
