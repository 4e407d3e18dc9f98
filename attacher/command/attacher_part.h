// The attacher as a part of csi-sidecars (component/controller_part.h): its
// own flags as --attacher-<flag>, the checks and options of csi-attacher, its
// Lease "<driver>-attacher"-style name (attacher/names.h) and identity
// variable CSI_ATTACHER_LEADER_IDENTITY. It runs with any driver, as the
// separate sidecar does (a driver that does not attach gets the trivial
// handler).
#pragma once

#include <memory>

#include "component/controller_part.h"

namespace csiattacher {

std::unique_ptr<component::ControllerPart> NewAttacherPart();

}  // namespace csiattacher
