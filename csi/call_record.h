// What the metrics layer learns about every unary call to the driver, shared
// by the gRPC connection (csi/connection.h) and the gRPC-free one
// (csi_lite/connection.h). Header only, so that a binary can record calls
// without linking the csi library and its gRPC.
#pragma once

#include <functional>
#include <string_view>

namespace csi {

struct CallRecord {
  std::string_view method;  // full gRPC method: "/csi.v1.Controller/ListVolumes"
  int code;                 // gRPC status code, 0 = OK
  double seconds;           // time spent in the call
  bool migrated;            // the call serves an in-tree PV (CSI migration)
};
// Called on the calling thread after each call; must be thread-safe.
using MetricsHook = std::function<void(const CallRecord&)>;

}  // namespace csi
