#include "tests/fuzz/protobuf_check.h"

#include <functional>
#include <vector>

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/decode_error.h"
#include "kube/api/proto/core_v1.h"
#include "kube/api/proto/decode.h"
#include "kube/api/proto/watch_decoder.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace fuzz {
namespace {

template <class T>
void DecodeEveryWay(std::string_view data) {
  (void)kube::DecodeProtobuf<T>(data);
  (void)kube::DecodeProtobuf<kube::ObjectList<T>>(data);
  try {  // the bare message, as inside an envelope
    kube::proto::WireReader in(data);
    T object;
    ReadProto(in, object);
  } catch (const kube::DecodeError&) {
  }
}

struct Outcome {
  std::vector<kube::WatchEvent<kube::VolumeAttachment>> events;
  std::string error;
  bool partial = false;
};

// Feeds `data` in chunks of the sizes `chunk_size` returns (0 = all at once).
Outcome Watch(std::string_view data, const std::function<size_t(size_t)>& chunk_size) {
  Outcome outcome;
  std::function<bool(kube::WatchEvent<kube::VolumeAttachment> &&)> on_event = [&](auto&& event) {
    outcome.events.push_back(std::move(event));
    return true;
  };
  kube::ProtobufWatchDecoder<kube::VolumeAttachment> decoder(on_event);
  for (size_t at = 0, i = 0; at < data.size(); ++i) {
    size_t n = chunk_size(i);
    if (n == 0 || n > data.size() - at) n = data.size() - at;
    if (!decoder.Feed(data.substr(at, n))) break;
    at += n;
  }
  outcome.error = decoder.error().message;
  outcome.partial = decoder.HasPartialEvent();
  return outcome;
}

bool SameEvents(const Outcome& a, const Outcome& b) {
  if (a.events.size() != b.events.size()) return false;
  for (size_t i = 0; i < a.events.size(); ++i) {
    const auto& x = a.events[i];
    const auto& y = b.events[i];
    if (x.type != y.type || !(x.object == y.object) || x.error.code != y.error.code ||
        x.error.message != y.error.message) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string CheckProtobuf(std::string_view data) {
  DecodeEveryWay<kube::VolumeAttachment>(data);
  DecodeEveryWay<kube::PersistentVolume>(data);
  (void)kube::DecodeProtobuf<kube::Status>(data);

  Outcome whole = Watch(data, [](size_t) { return 0; });
  Outcome chunked = Watch(data, [](size_t i) { return i % 7 + 1; });
  if (!SameEvents(whole, chunked)) return "watch events differ between one chunk and small chunks";
  if (whole.error != chunked.error) {
    return "watch errors differ: \"" + whole.error + "\" vs \"" + chunked.error + "\"";
  }
  if (whole.partial != chunked.partial) return "partial-event state differs";
  return "";
}

}  // namespace fuzz
