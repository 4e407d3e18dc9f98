// decode-bench: the JSON decoding of the hot path in isolation - a 20k-item
// VolumeAttachment list and 20k watch lines, as the API server writes them
// (managedFields included), decoded through the DOM (nlohmann parse, then the
// field tables over the DOM: the codec before the stream codec) and through
// the stream codec (what DecodeList and WatchDecoder use). Prints the best
// time of several runs, the number of allocations and the peak of live heap
// bytes during one decode. Then what one cached object costs: the struct's
// size and the heap its strings, lists and maps keep once a list of
// VolumeAttachments or PersistentVolumes is decoded (as the attacher's scale
// workload has the API server return them), for docs/design.md §4. A
// measurement, never a verdict.
//   decode-bench [--items=N] [--runs=R]
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kube/api/codec.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/api/watch_event.h"

namespace {

// Heap accounting through the global operators new and delete.
std::atomic<size_t> live_bytes{0};
std::atomic<size_t> live_blocks{0};
std::atomic<size_t> peak_bytes{0};
std::atomic<size_t> allocations{0};

void* Allocate(size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  size_t now = live_bytes += malloc_usable_size(p);
  ++live_blocks;
  ++allocations;
  size_t peak = peak_bytes.load();
  while (now > peak && !peak_bytes.compare_exchange_weak(peak, now)) {
  }
  return p;
}

void Release(void* p) {
  if (p == nullptr) return;
  live_bytes -= malloc_usable_size(p);
  --live_blocks;
  std::free(p);
}

}  // namespace

void* operator new(size_t size) { return Allocate(size); }
void* operator new[](size_t size) { return Allocate(size); }
void operator delete(void* p) noexcept { Release(p); }
void operator delete[](void* p) noexcept { Release(p); }
void operator delete(void* p, size_t) noexcept { Release(p); }
void operator delete[](void* p, size_t) noexcept { Release(p); }

namespace {

std::string Item(size_t i, bool with_kind) {
  char name[32];
  std::snprintf(name, sizeof(name), "%06zu", i);
  std::string kind =
      with_kind ? R"("kind":"VolumeAttachment","apiVersion":"storage.k8s.io/v1",)" : "";
  return "{" + kind + R"("metadata":{"name":"va-)" + name + R"(","uid":"6f1c2a4e-1b2c-4d5e-8f90-)" +
         name + R"(abcdef","resourceVersion":")" + std::to_string(100000 + i) +
         R"(","creationTimestamp":"2026-11-24T19:00:00Z","annotations":{"csi.alpha.kubernetes.io/node-id":"node-1"},"finalizers":["external-attacher/bench-csi-test"],"managedFields":[{"manager":"bench","operation":"Update","apiVersion":"storage.k8s.io/v1","time":"2026-11-24T19:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:attacher":{},"f:nodeName":{},"f:source":{"f:persistentVolumeName":{}}}}},{"manager":"csi-attacher","operation":"Update","apiVersion":"storage.k8s.io/v1","time":"2026-11-24T19:00:01Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:csi.alpha.kubernetes.io/node-id":{}},"f:finalizers":{".":{},"v:\"external-attacher/bench-csi-test\"":{}}}}},{"manager":"csi-attacher","operation":"Update","apiVersion":"storage.k8s.io/v1","time":"2026-11-24T19:00:01Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:attached":{}}},"subresource":"status"}]},"spec":{"attacher":"bench.csi.test","nodeName":"node-1","source":{"persistentVolumeName":"pv-)" +
         name + R"("}},"status":{"attached":true}})";
}

// A PersistentVolume of the attacher's scale workload (bench/objects.cpp) as
// the API server returns it once attached: defaulted volumeMode, both finalizers.
std::string PvItem(size_t i) {
  char name[32];
  std::snprintf(name, sizeof(name), "%06zu", i);
  return R"({"metadata":{"name":"pv-)" + std::string(name) +
         R"(","uid":"7a2d3b5f-2c3d-4e6f-9a01-)" + name + R"(abcdef","resourceVersion":")" +
         std::to_string(200000 + i) +
         R"(","creationTimestamp":"2026-11-24T19:00:00Z","finalizers":["kubernetes.io/pv-protection","external-attacher/bench-csi-test"]},"spec":{"capacity":{"storage":"1Gi"},"csi":{"driver":"bench.csi.test","volumeHandle":"pv-)" +
         name +
         R"("},"accessModes":["ReadWriteOnce"],"persistentVolumeReclaimPolicy":"Retain","volumeMode":"Filesystem"},"status":{"phase":"Available"}})";
}

// What decoding a list of `items` leaves on the heap per object, beyond the
// list's own array of structs; a block costs its usable size and malloc's
// 8-byte header, as in a cache. Values the objects share are pooled once.
template <class T>
void PrintKept(const char* what, size_t items, std::string (*item)(size_t)) {
  std::string list = R"({"metadata":{"resourceVersion":"1"},"items":[)";
  for (size_t i = 0; i < items; ++i) list += (i > 0 ? "," : "") + item(i);
  list += "]}";
  size_t bytes_before = live_bytes.load();
  size_t blocks_before = live_blocks.load();
  auto result = kube::DecodeList<T>(list);
  if (!result.ok() || result->items.size() != items) {
    std::printf("%s: decoding failed: %s\n", what,
                result.ok() ? "wrong item count" : result.error().message.c_str());
    return;
  }
  size_t array = result->items.capacity() * sizeof(T);
  size_t kept = live_bytes.load() - bytes_before + 8 * (live_blocks.load() - blocks_before);
  std::printf("%-22s %8zu B struct %8.1f B heap per object\n", what, sizeof(T),
              static_cast<double>(kept - array - 8) / static_cast<double>(items));
}

struct Measure {
  double best_ms = 0;
  size_t allocations = 0;
  size_t peak_bytes = 0;
};

// Runs `decode` `runs` times: the best time, and the allocations and peak
// live bytes (above what was live before) of the last run.
Measure Run(int runs, const std::function<void()>& decode) {
  Measure m;
  for (int r = 0; r < runs; ++r) {
    size_t base = live_bytes.load();
    peak_bytes = base;
    size_t allocs_before = allocations.load();
    auto start = std::chrono::steady_clock::now();
    decode();
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    m.best_ms = r == 0 ? ms : std::min(m.best_ms, ms);
    m.allocations = allocations.load() - allocs_before;
    m.peak_bytes = peak_bytes.load() - base;
  }
  return m;
}

void Print(const char* what, const Measure& dom, const Measure& stream) {
  std::printf("%-22s %10.1f ms %10.1f ms %8.2fx %12zu %12zu %10.1f MiB %10.1f MiB\n", what,
              dom.best_ms, stream.best_ms, dom.best_ms / stream.best_ms, dom.allocations,
              stream.allocations, dom.peak_bytes / 1048576.0, stream.peak_bytes / 1048576.0);
}

size_t Flag(int argc, char** argv, std::string_view name, size_t fallback) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.starts_with(name) && arg.size() > name.size() && arg[name.size()] == '=') {
      return std::strtoull(argv[i] + name.size() + 1, nullptr, 10);
    }
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  size_t items = Flag(argc, argv, "--items", 20000);
  int runs = static_cast<int>(Flag(argc, argv, "--runs", 5));

  std::string list =
      R"({"kind":"VolumeAttachmentList","apiVersion":"storage.k8s.io/v1","metadata":{"resourceVersion":"999999"},"items":[)";
  std::string lines;
  for (size_t i = 0; i < items; ++i) {
    if (i > 0) list += ",";
    list += Item(i, false);
    lines += R"({"type":"MODIFIED","object":)" + Item(i, true) + "}\n";
  }
  list += "]}";

  size_t decoded = 0;
  Measure list_dom = Run(runs, [&] {
    auto doc = nlohmann::json::parse(list);
    auto result = kube::ObjectFromJson<kube::ObjectList<kube::VolumeAttachment>>(doc);
    decoded += result.ok() ? result->items.size() : 0;
  });
  Measure list_stream = Run(runs, [&] {
    auto result = kube::DecodeList<kube::VolumeAttachment>(list);
    decoded += result.ok() ? result->items.size() : 0;
  });

  // Both consume the same 64 KiB chunks; each event is handed on and dropped.
  constexpr size_t kChunk = 64 * 1024;
  Measure watch_dom = Run(runs, [&] {
    std::string buffer;
    for (size_t at = 0; at < lines.size(); at += kChunk) {
      buffer.append(lines, at, kChunk);
      size_t start = 0;
      for (size_t nl; (nl = buffer.find('\n', start)) != std::string::npos; start = nl + 1) {
        auto doc = nlohmann::json::parse(std::string_view(buffer).substr(start, nl - start));
        auto object = kube::ObjectFromJson<kube::VolumeAttachment>(doc["object"]);
        decoded += object.ok() ? 1 : 0;
      }
      buffer.erase(0, start);
    }
  });
  Measure watch_stream = Run(runs, [&] {
    std::function<bool(kube::WatchEvent<kube::VolumeAttachment> &&)> on_event = [&](auto&&) {
      ++decoded;
      return true;
    };
    kube::WatchDecoder<kube::VolumeAttachment> decoder(on_event);
    for (size_t at = 0; at < lines.size(); at += kChunk) {
      decoder.Feed(std::string_view(lines).substr(at, kChunk));
    }
  });

  std::printf("%zu items; list %.1f MiB, watch %.1f MiB; best of %d runs; %zu objects decoded\n",
              items, list.size() / 1048576.0, lines.size() / 1048576.0, runs, decoded);
  std::printf("%-22s %13s %13s %9s %12s %12s %14s %14s\n", "", "DOM", "stream", "speedup",
              "DOM allocs", "stream allocs", "DOM peak", "stream peak");
  Print("list (DecodeList)", list_dom, list_stream);
  Print("watch (WatchDecoder)", watch_dom, watch_stream);
  std::printf("kept per decoded object (stream codec, %zu items):\n", items);
  PrintKept<kube::VolumeAttachment>("VolumeAttachment", items,
                                    [](size_t i) { return Item(i, false); });
  PrintKept<kube::PersistentVolume>("PersistentVolume", items, PvItem);
  return 0;
}
