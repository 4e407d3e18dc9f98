// The resizer as a part of csi-sidecars (component/controller_part.h): its
// own flags as --resizer-<flag>, csi-resizer's decisions (setup.h), its Lease
// (resizer/names.h) and identity variable CSI_RESIZER_LEADER_IDENTITY. A
// driver that neither expands nor modifies volumes turns the part off where
// csi-resizer exits.
#pragma once

#include <memory>

#include "component/controller_part.h"

namespace csiresizer {

std::unique_ptr<component::ControllerPart> NewResizerPart();

}  // namespace csiresizer
