// The source a binary's Events carry: client-go's recorders name the
// component, and the host tells replicas apart.
#pragma once

#include <string>

#include "kube/tools/event_recorder.h"

namespace component {

// `component_name` (e.g. "csi-attacher") and this host's name, when it has one.
kube::EventRecorderOptions EventSource(std::string component_name);

}  // namespace component
