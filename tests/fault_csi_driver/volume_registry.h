// VolumeRegistry: what the fake back end knows — every volume a call or
// --volumes has named (with its capacity when declared), which nodes each one
// is attached to, and per-volume call counters that let tests assert
// "published exactly once".
//
// CreateVolume makes volumes by name, the CSI idempotency key: the ID is
// "vol-<name>", so the same name always answers the same volume, also after
// its deletion and re-creation. DeleteVolume removes a volume for good: a
// deleted ID is gone (ListVolumes skips it, Publish gets NOT_FOUND) until
// CreateVolume makes it again. Entries are never dropped, so their counters
// stay readable (format in README.md); an ID only DeleteVolume calls named is
// counted without becoming a volume. Thread-safe.
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

enum class PublishOutcome { kAttached, kAlreadyAttached, kAttachedElsewhere, kDeleted };
// kIdTaken: the name's ID is a volume CreateVolume did not make (--volumes, a
// Publish call).
enum class VolumeCreateOutcome { kCreated, kExisting, kIdTaken };
// kPublished: still attached to a node; a real back end refuses that.
enum class VolumeDeleteOutcome { kDeleted, kUnknown, kPublished };

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

  // What CreateVolume asked for, kept for the state file. The content source
  // and accessibility requirements are JSON as the call recorded them, null
  // when the request had none.
  struct NewVolume {
    std::string name;
    int64_t capacity_bytes = 0;
    Context volume_context = {};
    Context parameters = {};
    Context mutable_parameters = {};
    std::vector<std::string> secret_keys = {};  // values are never kept
    nlohmann::json content_source = nullptr;
    nlohmann::json accessibility_requirements = nullptr;
    // The caller was gone when the back end made it (a hang with
    // after_success, a delay past its deadline), so only a retry or a
    // cleanup can find it.
    bool caller_gave_up = false;
  };
  struct CreateResult {
    VolumeCreateOutcome outcome;
    std::string volume_id;
    int64_t capacity_bytes = 0;  // kCreated, kExisting: the volume's own
  };

  // The ID CreateVolume gives the volume named `name`.
  static std::string VolumeIdFor(const std::string& name);

  // Makes a volume known with its size, as if the back end had created it.
  void Declare(const std::string& volume_id, int64_t capacity_bytes);
  // nullopt: no call and no Declare named the volume, or it was deleted; 0:
  // its size is unknown.
  std::optional<int64_t> CapacityBytes(std::string_view volume_id) const;

  // The volume of this name, or the existing one (nothing compared).
  CreateResult Create(const NewVolume& request);
  // Removes the volume; an unknown or deleted ID is kUnknown.
  VolumeDeleteOutcome Delete(const std::string& volume_id);
  // The name CreateVolume made `volume_id` for (deleted or not).
  std::optional<std::string> CreatedName(const std::string& volume_id) const;

  // Count a call as received (faulted or not), making the volume known
  // unless DeleteVolume removed it.
  void NotePublishCall(const std::string& volume_id);
  void NoteUnpublishCall(const std::string& volume_id);
  // Create calls make the name known; delete calls keep the secret keys of
  // the latest call and give an unknown ID an entry that is no volume.
  void NoteCreateCall(const std::string& name);
  void NoteDeleteCall(const std::string& volume_id, const std::vector<std::string>& secret_keys);
  // Count a call answered OK (the caller may have left by then).
  void NoteCreateOk(const std::string& name);
  void NoteDeleteOk(const std::string& volume_id);

  // `single_node`: the access mode allows one node only, so a second node is
  // refused like a real driver does (FAILED_PRECONDITION). A deleted volume
  // is kDeleted.
  PublishOutcome Publish(const std::string& volume_id, const std::string& node_id, bool single_node,
                         const Context& volume_context);
  // An empty `node_id` detaches from every node. Unknown volumes are fine.
  void Unpublish(const std::string& volume_id, const std::string& node_id);
  // Drops every attachment without a call, as if an admin detached the disk.
  void DetachBehindBack(const std::string& volume_id);

  // Existing volumes in volume_id order. The token is the first volume_id of
  // the next page, so volumes added between pages neither shift nor repeat
  // entries. `max_entries` 0 means all. nullopt: the token names no volume
  // the registry ever had.
  std::optional<ListPage> List(size_t max_entries, std::string_view starting_token) const;

  // {"volumes": {id: {capacity_bytes, exists, counters}}, "attachments": {id:
  //  [nodes]}, "volumes_by_name": {name: {...}}, "existing_volumes": [ids]}
  nlohmann::json ToJson() const;

 private:
  enum class Presence {
    kExists,
    kDeleted,       // by DeleteVolume
    kNeverExisted,  // only DeleteVolume calls named it; any other call makes it known
  };
  struct Volume {
    Presence presence = Presence::kExists;
    // CreateVolume made it (this life or the last one): the ID is its name's.
    bool made_by_create = false;
    int64_t capacity_bytes = 0;
    Context volume_context;
    std::set<std::string> nodes;
    int64_t publish_calls = 0;
    int64_t unpublish_calls = 0;
    int64_t attaches = 0;  // node added to `nodes`
    int64_t detaches = 0;  // node removed by ControllerUnpublishVolume
    int64_t detached_behind_back = 0;
    int64_t delete_calls = 0;
    int64_t delete_ok = 0;
    std::vector<std::string> delete_secret_keys;
  };

  // One CreateVolume name: its calls and what its latest creation asked for.
  struct Named {
    int64_t create_calls = 0;
    int64_t create_ok = 0;
    std::optional<NewVolume> created;  // nullopt: never created
  };

  // The entry of a volume a Publish or Unpublish call names: known from now
  // on, unless DeleteVolume removed it. Needs mu_.
  Volume& NamedByCallLocked(const std::string& volume_id);
  // The state file's entry for one name. Needs mu_.
  nlohmann::json NamedToJsonLocked(const std::string& name, const Named& named) const;

  mutable std::mutex mu_;
  std::map<std::string, Volume, std::less<>> volumes_;  // guarded by mu_
  std::map<std::string, Named> named_;                  // guarded by mu_: by CreateVolume name
};

}  // namespace faultdriver
