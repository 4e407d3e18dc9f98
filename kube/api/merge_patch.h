// CreateMergePatch: the RFC 7386 JSON merge patch that turns `original` into
// `modified`. Members missing from `modified` become null (delete), objects
// present on both sides are diffed recursively, and anything else that
// differs - arrays included - is replaced whole. An empty object means "no
// change". A member that is null in `modified` and absent from `original`
// needs no entry: applying the patch would leave it absent either way.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "kube/api/dom_codec.h"
#include "kube/api/field.h"

namespace kube {

inline constexpr std::string_view kMergePatchContentType = "application/merge-patch+json";

nlohmann::json CreateMergePatch(const nlohmann::json& original, const nlohmann::json& modified);

// The patch turning {"<field>": original} into {"<field>": modified}, both as
// the codec encodes them: a change to one part of an object (its status, its
// metadata), as Go computes it from json(old) and json(new).
template <TableStruct T>
nlohmann::json CreateMergePatch(std::string_view field, const T& original, const T& modified) {
  nlohmann::json before;
  nlohmann::json after;
  codec_internal::EncodeValue(before[field], original);
  codec_internal::EncodeValue(after[field], modified);
  return CreateMergePatch(before, after);
}

}  // namespace kube
