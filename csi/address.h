// The CSI endpoint address (--csi-address), validated the way upstream's
// Connect does it with an OnConnectionLoss callback: only unix sockets.
//
//   "/run/csi/socket"         -> uri "unix:///run/csi/socket"
//   "unix:///run/csi/socket"  -> kept
//   "unix://rel/socket"       -> a socket path relative to the working dir
//   anything else (dns:, tcp host:port, a relative path) -> error
//     "OnConnectionLoss callback only supported for unix:// addresses"
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace csi {

struct UnixAddress {
  std::string path;  // the socket's file-system path
  std::string uri;   // "unix://" + path, as upstream logs it

  // The target gRPC C++ dials ("unix:<path>"; it rejects "unix://rel").
  std::string GrpcTarget() const { return "unix:" + path; }
};

base::Result<UnixAddress> ParseAddress(std::string_view address);

}  // namespace csi
