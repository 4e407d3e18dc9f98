// FakeKubelet: kubelet's side of plugin registration (docs/node-sidecars.md
// §4.2-§4.4) for the registrar's tests, as no real kubelet can run here (§5):
// it waits for a registration socket, reads its mode, calls GetInfo and
// NotifyRegistrationStatus, and plays the CSI handler: NodeGetInfo on the
// endpoint GetInfo named, then the Node annotation and the CSINode entry
// written into the API server as kubelet's nodeinfomanager writes them.
// Not thread-safe: one test drives it.
#pragma once

#include <chrono>
#include <string>

#include "base/result.h"
#include "kube/client/client.h"
#include "registrar/proto/pluginregistration.grpc.pb.h"

namespace node_it {

struct SocketFacts {
  bool is_socket = false;
  unsigned mode = 0;  // permission bits
};

class FakeKubelet {
 public:
  // The registration socket's facts once `path` exists, or an error after `timeout`.
  static base::Result<SocketFacts> WaitForSocket(const std::string& path,
                                                 std::chrono::milliseconds timeout);

  // GetInfo with kubelet's 1 s timeout (§4.3 step 2).
  static base::Result<pluginregistration::PluginInfo> GetInfo(const std::string& socket);

  // NotifyRegistrationStatus with kubelet's 5 s timeout (§4.3 step 6).
  static grpc::Status Notify(const std::string& socket, bool registered, const std::string& error);

  // §4.4 Register: NodeGetInfo on `endpoint` (the driver), then the Node
  // `node`'s csi.volume.kubernetes.io/nodeid annotation and its CSINode's
  // spec.drivers entry (created with an owner reference to the Node when
  // missing). Returns the driver's node ID.
  static base::Result<std::string> InstallCsiDriver(kube::Client& client, const std::string& node,
                                                    const std::string& driver,
                                                    const std::string& endpoint);
};

}  // namespace node_it
