// CreateMergePatch: the RFC 7386 JSON merge patch that turns `original` into
// `modified`. Members missing from `modified` become null (delete), objects
// present on both sides are diffed recursively, and anything else that
// differs - arrays included - is replaced whole. An empty object means "no
// change". A member that is null in `modified` and absent from `original`
// needs no entry: applying the patch would leave it absent either way.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace kube {

inline constexpr std::string_view kMergePatchContentType = "application/merge-patch+json";

nlohmann::json CreateMergePatch(const nlohmann::json& original, const nlohmann::json& modified);

}  // namespace kube
