// VolumeRegistry: what the fake back end knows — every volume a call or
// --volumes has named (with its capacity when declared), which nodes each one
// is attached to, and per-volume call counters that let tests assert
// "published exactly once". Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace faultdriver {

enum class PublishOutcome { kAttached, kAlreadyAttached, kAttachedElsewhere };

class VolumeRegistry {
 public:
  using Context = std::map<std::string, std::string>;

  struct ListEntry {
    std::string volume_id;
    int64_t capacity_bytes;
    Context volume_context;
    std::vector<std::string> published_node_ids;
  };
  struct ListPage {
    std::vector<ListEntry> entries;
    std::string next_token;  // empty on the last page
  };

  // Makes a volume known with its size, as if the back end had created it.
  void Declare(const std::string& volume_id, int64_t capacity_bytes);
  // nullopt: no call and no Declare named the volume; 0: its size is unknown.
  std::optional<int64_t> CapacityBytes(std::string_view volume_id) const;

  // Count a call as received (faulted or not), making the volume known.
  void NotePublishCall(const std::string& volume_id);
  void NoteUnpublishCall(const std::string& volume_id);

  // `single_node`: the access mode allows one node only, so a second node is
  // refused like a real driver does (FAILED_PRECONDITION).
  PublishOutcome Publish(const std::string& volume_id, const std::string& node_id, bool single_node,
                         const Context& volume_context);
  // An empty `node_id` detaches from every node. Unknown volumes are fine.
  void Unpublish(const std::string& volume_id, const std::string& node_id);
  // Drops every attachment without a call, as if an admin detached the disk.
  void DetachBehindBack(const std::string& volume_id);

  // Volumes in volume_id order. The token is the first volume_id of the next
  // page, so volumes added between pages neither shift nor repeat entries.
  // `max_entries` 0 means all. nullopt: the token names no known volume.
  std::optional<ListPage> List(size_t max_entries, std::string_view starting_token) const;

  // {"volumes": {id: {capacity_bytes, counters}}, "attachments": {id: [nodes]}}
  nlohmann::json ToJson() const;

 private:
  struct Volume {
    int64_t capacity_bytes = 0;
    Context volume_context;
    std::set<std::string> nodes;
    int64_t publish_calls = 0;
    int64_t unpublish_calls = 0;
    int64_t attaches = 0;  // node added to `nodes`
    int64_t detaches = 0;  // node removed by ControllerUnpublishVolume
    int64_t detached_behind_back = 0;
  };

  mutable std::mutex mu_;
  std::map<std::string, Volume, std::less<>> volumes_;  // guarded by mu_
};

}  // namespace faultdriver
