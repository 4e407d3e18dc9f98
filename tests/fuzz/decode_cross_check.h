// The fuzz targets' oracle: decodes the same bytes with the stream codec
// (stream_codec.h, what the product uses) and the DOM codec (dom_codec.h over
// nlohmann's parser) and compares them - both fail, or both succeed with equal
// structs and equal re-encoded JSON; input holding a NUL byte, which only
// nlohmann accepts (json_reader.h), must fail. Used by the libFuzzer targets in this
// folder (clang, scripts/fuzz.sh) and by a unit test that replays the
// committed corpus with the project's own compiler.
#pragma once

#include <string>
#include <string_view>

namespace fuzz {

// Each returns an empty string when the codecs agree on `data`, else what differs.

// `data` as every kind of the API layer and as a Status.
std::string CrossCheckObject(std::string_view data);
// `data` as the List of a few kinds.
std::string CrossCheckList(std::string_view data);
// The first line of `data` as a watch event line of a few kinds.
std::string CrossCheckWatchEvent(std::string_view data);
// `data` as a Status (an API error answer, a watch ERROR object).
std::string CrossCheckStatus(std::string_view data);

}  // namespace fuzz
