#include "tests/fault_csi_driver/options.h"

#include <iostream>

#include "base/file.h"
#include "base/flags.h"
#include "csi/address.h"

namespace faultdriver {
namespace {

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string_view item = base::TrimSpace(std::string_view(text).substr(start, comma - start));
    if (!item.empty()) items.emplace_back(item);
    start = comma + 1;
  }
  return items;
}

base::Error UsageError(const std::string& message) {
  std::cerr << "fault-csi-driver: " << message << "\n";
  return base::Error::WithCode(base::kExitUsageError, message);
}

}  // namespace

base::Result<DriverOptions> ParseDriverOptions(int argc, const char* const* argv) {
  DriverOptions options;
  std::string endpoint, node_ids, capabilities;
  bool no_controller_service = false;

  base::FlagSet flags("fault-csi-driver");
  flags.String("endpoint", &endpoint, "", "CSI socket to serve: /path or unix://path (required)");
  flags.String("name", &options.driver_name, "fault.csi.test",
               "driver name returned by GetPluginInfo");
  flags.String("node-id", &node_ids, "",
               "comma-separated node IDs ControllerPublishVolume accepts (others get NOT_FOUND); "
               "empty accepts any");
  flags.Duration("publish-latency", &options.publish_latency, {},
                 "time every ControllerPublishVolume takes");
  flags.Duration("unpublish-latency", &options.unpublish_latency, {},
                 "time every ControllerUnpublishVolume takes");
  flags.String("capabilities", &capabilities, "PUBLISH_UNPUBLISH_VOLUME",
               "comma-separated controller capabilities to advertise");
  flags.Bool("no-controller-service", &no_controller_service, false,
             "advertise no CONTROLLER_SERVICE and serve no Controller RPCs");
  flags.String("state-file", &options.state_file, "",
               "JSON file rewritten after every call with the calls and attachments");
  flags.String("control-dir", &options.control_dir, "",
               "directory whose faults.json is re-read when it changes");
  if (base::Status parsed = flags.Parse(argc, argv); !parsed.ok()) return parsed.error();

  if (endpoint.empty()) return UsageError("--endpoint is required");
  base::Result<csi::UnixAddress> address = csi::ParseAddress(endpoint);
  if (!address.ok()) return UsageError("--endpoint: " + address.error().message);
  options.socket_path = address->path;
  if (options.driver_name.empty()) return UsageError("--name must not be empty");

  for (const std::string& node : SplitList(node_ids)) options.node_ids.insert(node);
  for (const std::string& name : SplitList(capabilities)) {
    csi::v1::ControllerServiceCapability::RPC::Type type;
    if (!csi::v1::ControllerServiceCapability::RPC::Type_Parse(name, &type) ||
        type == csi::v1::ControllerServiceCapability::RPC::UNKNOWN) {
      return UsageError("--capabilities: unknown controller capability \"" + name + "\"");
    }
    options.capabilities.push_back(type);
  }
  options.controller_service = !no_controller_service;
  return options;
}

}  // namespace faultdriver
