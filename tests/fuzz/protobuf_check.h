// The protobuf fuzz target's oracle: decodes the same bytes as each
// protobuf-decoded kind (enveloped, bare and as a List) and as a watch
// stream, which must give the same events and error whether the bytes arrive
// at once or in small chunks. Crashes and undefined behaviour are the
// sanitizers' finding (scripts/fuzz.sh); the unit tests replay the committed
// corpus through it.
#pragma once

#include <string>
#include <string_view>

namespace fuzz {

// An empty string when every check holds on `data`, else what differs.
std::string CheckProtobuf(std::string_view data);

}  // namespace fuzz
