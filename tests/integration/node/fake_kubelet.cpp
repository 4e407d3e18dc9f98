#include "tests/integration/node/fake_kubelet.h"

#include <fmt/format.h>
#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/channel_arguments.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "csi/proto/csi.grpc.pb.h"

namespace node_it {
namespace {

using nlohmann::json;

std::chrono::system_clock::time_point DeadlineAfter(std::chrono::milliseconds d) {
  return std::chrono::system_clock::now() + d;
}

// kubelet dials a socket by its bare path, so its grpc-go sends that path as
// :authority; gRPC C++ would send "localhost". The path it is, as kubelet's.
std::shared_ptr<grpc::Channel> UnixChannel(const std::string& path) {
  grpc::ChannelArguments arguments;
  arguments.SetString(GRPC_ARG_DEFAULT_AUTHORITY, path);
  return grpc::CreateCustomChannel("unix:" + path, grpc::InsecureChannelCredentials(), arguments);
}

}  // namespace

base::Result<SocketFacts> FakeKubelet::WaitForSocket(const std::string& path,
                                                     std::chrono::milliseconds timeout) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  while (true) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
      return SocketFacts{S_ISSOCK(st.st_mode), static_cast<unsigned>(st.st_mode & 07777)};
    }
    if (std::chrono::steady_clock::now() >= give_up) {
      return base::Error(fmt::format("{} did not appear within {} ms", path, timeout.count()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

base::Result<pluginregistration::PluginInfo> FakeKubelet::GetInfo(const std::string& socket) {
  auto stub = pluginregistration::Registration::NewStub(UnixChannel(socket));
  grpc::ClientContext context;
  context.set_deadline(DeadlineAfter(std::chrono::seconds(1)));
  pluginregistration::PluginInfo info;
  grpc::Status status = stub->GetInfo(&context, {}, &info);
  if (!status.ok()) return base::Error("GetInfo: " + status.error_message());
  return info;
}

grpc::Status FakeKubelet::Notify(const std::string& socket, bool registered,
                                 const std::string& error) {
  auto stub = pluginregistration::Registration::NewStub(UnixChannel(socket));
  grpc::ClientContext context;
  context.set_deadline(DeadlineAfter(std::chrono::seconds(5)));
  pluginregistration::RegistrationStatus request;
  request.set_plugin_registered(registered);
  request.set_error(error);
  pluginregistration::RegistrationStatusResponse response;
  return stub->NotifyRegistrationStatus(&context, request, &response);
}

base::Result<std::string> FakeKubelet::InstallCsiDriver(kube::Client& client,
                                                        const std::string& node,
                                                        const std::string& driver,
                                                        const std::string& endpoint) {
  auto node_stub = csi::v1::Node::NewStub(UnixChannel(endpoint));
  grpc::ClientContext context;
  context.set_deadline(DeadlineAfter(std::chrono::seconds(5)));
  csi::v1::NodeGetInfoResponse info;
  grpc::Status status = node_stub->NodeGetInfo(&context, {}, &info);
  if (!status.ok()) return base::Error("NodeGetInfo: " + status.error_message());
  if (info.node_id().empty()) return base::Error("driverNodeID must not be empty");

  const std::string node_path = "/api/v1/nodes/" + node;
  auto node_body = client.Request("GET", node_path);
  if (!node_body.ok()) return node_body.error().Wrap("GET " + node_path);
  const json node_object = json::parse(*node_body);
  json ids = json::object();
  const std::string old_ids = node_object.value(
      json::json_pointer("/metadata/annotations/csi.volume.kubernetes.io~1nodeid"), "");
  if (!old_ids.empty()) ids = json::parse(old_ids);
  ids[driver] = info.node_id();
  const json annotation = {
      {"metadata", {{"annotations", {{"csi.volume.kubernetes.io/nodeid", ids.dump()}}}}}};
  if (auto patched =
          client.Request("PATCH", node_path, annotation.dump(), "application/merge-patch+json");
      !patched.ok()) {
    return patched.error().Wrap("annotate Node " + node);
  }

  json entry = {{"name", driver}, {"nodeID", info.node_id()}, {"topologyKeys", json::array()}};
  if (info.has_accessible_topology()) {
    for (const auto& [key, value] : info.accessible_topology().segments()) {
      entry["topologyKeys"].push_back(key);
    }
  }
  if (info.max_volumes_per_node() > 0) {
    entry["allocatable"] = {{"count", info.max_volumes_per_node()}};
  }
  const std::string csinode_path = "/apis/storage.k8s.io/v1/csinodes/" + node;
  auto existing = client.Request("GET", csinode_path);
  if (!existing.ok()) {
    const json csinode = {
        {"apiVersion", "storage.k8s.io/v1"},
        {"kind", "CSINode"},
        {"metadata",
         {{"name", node},
          {"ownerReferences", json::array({{{"apiVersion", "v1"},
                                            {"kind", "Node"},
                                            {"name", node},
                                            {"uid", node_object["metadata"]["uid"]}}})}}},
        {"spec", {{"drivers", json::array({entry})}}},
    };
    auto created = client.Request("POST", "/apis/storage.k8s.io/v1/csinodes", csinode.dump(),
                                  "application/json");
    if (!created.ok()) return created.error().Wrap("create CSINode " + node);
    return info.node_id();
  }
  json csinode = json::parse(*existing);
  json drivers = json::array();
  for (const json& d : csinode["spec"].value("drivers", json::array())) {
    if (d.value("name", "") != driver) drivers.push_back(d);
  }
  drivers.push_back(entry);
  csinode["spec"]["drivers"] = drivers;
  auto updated = client.Request("PUT", csinode_path, csinode.dump(), "application/json");
  if (!updated.ok()) return updated.error().Wrap("update CSINode " + node);
  return info.node_id();
}

}  // namespace node_it
