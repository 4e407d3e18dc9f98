#include "tests/fuzz/decode_cross_check.h"

#include <concepts>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>

#include "kube/api/codec.h"
#include "kube/api/coordination/v1/lease.h"
#include "kube/api/core/v1/event.h"
#include "kube/api/core/v1/node.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/core/v1/secret.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/api/status.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/api/watch_event.h"

namespace fuzz {

namespace {

using nlohmann::json;

// The DOM codec on text: nlohmann's parser, then the field tables over the DOM.
template <class T>
base::Result<T> DecodeThroughDom(std::string_view text) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return base::Error("not JSON");
  return kube::ObjectFromJson<T>(doc);
}

template <class T>
std::string Compare(std::string_view what, const base::Result<T>& stream,
                    const base::Result<T>& dom) {
  std::string label(what);
  if (stream.ok() != dom.ok()) {
    return label + ": stream " +
           (stream.ok() ? "accepts" : "rejects (" + stream.error().message + ")") + ", DOM " +
           (dom.ok() ? "accepts" : "rejects (" + dom.error().message + ")");
  }
  if (!stream.ok()) return {};
  if constexpr (std::equality_comparable<T>) {
    if (!(*stream == *dom)) return label + ": decoded structs differ";
  }
  std::string stream_json = kube::EncodeObject(*stream);
  std::string dom_json = kube::EncodeObject(*dom);
  if (stream_json != dom_json) {
    return label + ": re-encoded differently: stream " + stream_json + " DOM " + dom_json;
  }
  return {};
}

// The one deliberate difference: nlohmann takes a NUL byte where a token may
// start for the end of the input, so "{}\0<anything>" parses; the stream
// codec, like Go, rejects a NUL byte anywhere (it is valid nowhere in JSON).
bool HasNul(std::string_view data) { return data.find('\0') != std::string_view::npos; }

template <class T>
std::string CrossCheck(std::string_view what, std::string_view data) {
  auto stream = kube::DecodeObject<T>(data);
  if (HasNul(data)) return stream.ok() ? std::string(what) + ": stream accepts a NUL byte" : "";
  return Compare<T>(what, stream, DecodeThroughDom<T>(data));
}

template <class... Kinds>
std::string CrossCheckEach(std::string_view data, const char* const (&names)[sizeof...(Kinds)]) {
  std::string found;
  size_t i = 0;
  ((found.empty() ? void(found = CrossCheck<Kinds>(names[i], data)) : void(), ++i), ...);
  return found;
}

// An event as both decoders report it: the type, then the object or error.
template <class T>
std::string Describe(const kube::WatchEvent<T>& event) {
  std::string text = std::to_string(static_cast<int>(event.type)) + " ";
  if (event.type == kube::WatchEventType::kError) {
    return text + std::to_string(event.error.code) + " " + event.error.message;
  }
  return text + kube::EncodeObject(event.object);
}

// The reading of a watch line through a DOM: what WatchDecoder did before it
// read lines without one.
template <class T>
base::Result<std::string> WatchLineThroughDom(std::string_view line) {
  json doc = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return base::Error("not a JSON object");
  auto type_it = doc.find("type");
  auto object_it = doc.find("object");
  if (type_it == doc.end() || !type_it->is_string() || object_it == doc.end() ||
      !object_it->is_object()) {
    return base::Error("missing type or object");
  }
  kube::WatchEvent<T> event;
  if (!kube::ParseWatchEventType(type_it->get_ref<const std::string&>(), event.type)) {
    return base::Error("unknown event type " + type_it->dump());
  }
  if (event.type == kube::WatchEventType::kError) {
    auto status = kube::StatusFromJson(*object_it);
    if (!status.ok()) return status.error();
    event.error = base::Error::Http(status->code, status->message);
  } else {
    auto object = kube::ObjectFromJson<T>(*object_it);
    if (!object.ok()) return object.error();
    event.object = std::move(object).value();
  }
  return Describe(event);
}

template <class T>
base::Result<std::string> WatchLineThroughStream(std::string_view line) {
  std::optional<std::string> seen;
  std::function<bool(kube::WatchEvent<T> &&)> on_event = [&](kube::WatchEvent<T>&& event) {
    seen = Describe(event);
    return true;
  };
  kube::WatchDecoder<T> decoder(on_event);
  if (!decoder.Feed(std::string(line) + "\n")) return decoder.error();
  if (!seen) return base::Error("no event");
  return *seen;
}

template <class T>
std::string CrossCheckWatchLine(std::string_view what, std::string_view line) {
  auto stream = WatchLineThroughStream<T>(line);
  std::string label(what);
  if (HasNul(line)) return stream.ok() ? label + ": stream accepts a NUL byte" : "";
  auto dom = WatchLineThroughDom<T>(line);
  if (stream.ok() != dom.ok()) {
    return label + ": stream " +
           (stream.ok() ? "accepts" : "rejects (" + stream.error().message + ")") + ", DOM " +
           (dom.ok() ? "accepts" : "rejects (" + dom.error().message + ")");
  }
  if (stream.ok() && *stream != *dom) return label + ": events differ: " + *stream + " vs " + *dom;
  return {};
}

}  // namespace

std::string CrossCheckObject(std::string_view data) {
  using namespace kube;
  return CrossCheckEach<VolumeAttachment, PersistentVolume, PersistentVolumeClaim, Secret, Node,
                        CSINode, Lease, Event, VolumeSnapshot, VolumeSnapshotContent,
                        VolumeSnapshotClass, VolumeGroupSnapshot, VolumeGroupSnapshotContent,
                        VolumeGroupSnapshotClass, Status>(
      data,
      {"VolumeAttachment", "PersistentVolume", "PersistentVolumeClaim", "Secret", "Node", "CSINode",
       "Lease", "Event", "VolumeSnapshot", "VolumeSnapshotContent", "VolumeSnapshotClass",
       "VolumeGroupSnapshot", "VolumeGroupSnapshotContent", "VolumeGroupSnapshotClass", "Status"});
}

std::string CrossCheckList(std::string_view data) {
  using namespace kube;
  return CrossCheckEach<ObjectList<VolumeAttachment>, ObjectList<PersistentVolume>,
                        ObjectList<VolumeSnapshotContent>, ObjectList<Secret>>(
      data,
      {"VolumeAttachmentList", "PersistentVolumeList", "VolumeSnapshotContentList", "SecretList"});
}

std::string CrossCheckWatchEvent(std::string_view data) {
  std::string_view line = data.substr(0, data.find('\n'));
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return {};  // skipped by both
  std::string found = CrossCheckWatchLine<kube::VolumeAttachment>("VolumeAttachment", line);
  if (found.empty()) found = CrossCheckWatchLine<kube::PersistentVolume>("PersistentVolume", line);
  if (found.empty()) {
    found = CrossCheckWatchLine<kube::VolumeSnapshotContent>("VolumeSnapshotContent", line);
  }
  return found;
}

std::string CrossCheckStatus(std::string_view data) {
  return CrossCheck<kube::Status>("Status", data);
}

}  // namespace fuzz
