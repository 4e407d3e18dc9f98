#include "component/event_source.h"

#include "base/hostname.h"

namespace component {

kube::EventRecorderOptions EventSource(std::string component_name) {
  kube::EventRecorderOptions options;
  options.component = std::move(component_name);
  if (base::Result<std::string> host = base::Hostname(); host.ok()) options.host = *host;
  return options;
}

}  // namespace component
