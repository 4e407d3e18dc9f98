#include "csi/node_client.h"

#include "csi/methods.h"

namespace csi {

NodeClient::NodeClient(Connection& connection)
    : connection_(connection), stub_(v1::Node::NewStub(connection.channel())) {}

base::Result<v1::NodeGetInfoResponse> NodeClient::NodeGetInfo(std::chrono::nanoseconds timeout) {
  return connection_.Call(*stub_, &v1::Node::Stub::NodeGetInfo, kNodeGetInfoMethod, {},
                          {.timeout = timeout});
}

}  // namespace csi
