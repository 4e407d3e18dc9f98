#include "csi/group_controller_client.h"

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include "csi/methods.h"

namespace csi {

GroupControllerClient::GroupControllerClient(Connection& connection)
    : connection_(connection), stub_(v1::GroupController::NewStub(connection.channel())) {}

base::Result<v1::GroupControllerGetCapabilitiesResponse>
GroupControllerClient::GroupControllerGetCapabilities(std::chrono::nanoseconds timeout) {
  return connection_.Call(*stub_, &v1::GroupController::Stub::GroupControllerGetCapabilities,
                          kGroupControllerGetCapabilitiesMethod, {}, {.timeout = timeout});
}

}  // namespace csi
