#include "csi/address.h"

namespace csi {

base::Result<UnixAddress> ParseAddress(std::string_view address) {
  constexpr std::string_view kUnixPrefix = "unix://";
  std::string uri(address);
  if (address.starts_with('/')) uri = std::string(kUnixPrefix) + uri;
  if (!std::string_view(uri).starts_with(kUnixPrefix)) {
    return base::Error("OnConnectionLoss callback only supported for unix:// addresses");
  }
  return UnixAddress{uri.substr(kUnixPrefix.size()), uri};
}

}  // namespace csi
