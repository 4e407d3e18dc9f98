// The protobuf watch stream (kube/api/proto/watch_decoder.h) and the choice
// between it and JSON by Content-Type (kube/api/watch_stream_decoder.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kube/api/proto/watch_decoder.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/api/watch_stream_decoder.h"
#include "tests/support/proto_writer.h"
#include "tests/unit/kube/collected_events.h"

namespace kube {
namespace {

using testsupport::Enveloped;
using testsupport::ProtoWriter;
using testsupport::WatchFrame;

using testing::CollectedEvents;

std::string Va(std::string_view name, std::string_view resource_version) {
  return Enveloped("storage.k8s.io/v1", "VolumeAttachment",
                   ProtoWriter()
                       .Message(1, ProtoWriter().Bytes(1, name).Bytes(6, resource_version))
                       .Message(2, ProtoWriter().Bytes(1, "drv").Bytes(3, "node-1")));
}

std::string Bookmark(std::string_view resource_version, bool initial_events_end) {
  ProtoWriter meta;
  meta.Bytes(6, resource_version);
  if (initial_events_end) meta.MapEntry(12, "k8s.io/initial-events-end", "true");
  return Enveloped("storage.k8s.io/v1", "VolumeAttachment", ProtoWriter().Message(1, meta));
}

std::string Expired() {
  return Enveloped("v1", "Status",
                   ProtoWriter()
                       .Bytes(2, "Failure")
                       .Bytes(3, "too old resource version: 5 (20)")
                       .Bytes(4, "Expired")
                       .Varint(6, 410));
}

TEST(ProtobufWatchDecoder, DecodesEveryEventTypeSplitAcrossArbitraryChunks) {
  std::string stream =
      WatchFrame("ADDED", Va("va-1", "11")) + WatchFrame("BOOKMARK", Bookmark("12", true)) +
      WatchFrame("MODIFIED", Va("va-1", "13")) + WatchFrame("DELETED", Va("va-1", "14")) +
      WatchFrame("BOOKMARK", Bookmark("15", false)) + WatchFrame("ERROR", Expired());
  CollectedEvents c;
  ProtobufWatchDecoder<VolumeAttachment> decoder(c.handler);
  for (char ch : stream) ASSERT_TRUE(decoder.Feed(std::string_view(&ch, 1)));
  EXPECT_FALSE(decoder.HasPartialEvent());
  ASSERT_EQ(c.events.size(), 6u);
  EXPECT_EQ(c.events[0].type, WatchEventType::kAdded);
  EXPECT_EQ(c.events[0].object.metadata.name, "va-1");
  EXPECT_EQ(c.events[0].object.spec.attacher, "drv");
  EXPECT_EQ(c.events[0].object.spec.node_name, "node-1");
  EXPECT_TRUE(IsInitialEventsEnd(c.events[1]));
  EXPECT_EQ(c.events[1].object.metadata.resource_version, "12");
  EXPECT_EQ(c.events[2].type, WatchEventType::kModified);
  EXPECT_EQ(c.events[3].type, WatchEventType::kDeleted);
  EXPECT_EQ(c.events[3].object.metadata.resource_version, "14");
  EXPECT_EQ(c.events[4].type, WatchEventType::kBookmark);
  EXPECT_FALSE(IsInitialEventsEnd(c.events[4]));
  EXPECT_EQ(c.events[5].type, WatchEventType::kError);
  EXPECT_EQ(c.events[5].error.code, 410);
  EXPECT_EQ(c.events[5].error.message, "too old resource version: 5 (20)");
}

TEST(ProtobufWatchDecoder, ManyFramesInOneChunkAndAPartialOneKept) {
  std::string stream = WatchFrame("ADDED", Va("a", "1")) + WatchFrame("ADDED", Va("b", "2"));
  std::string third = WatchFrame("ADDED", Va("c", "3"));
  CollectedEvents c;
  ProtobufWatchDecoder<VolumeAttachment> decoder(c.handler);
  ASSERT_TRUE(decoder.Feed(stream + third.substr(0, 7)));
  EXPECT_EQ(c.events.size(), 2u);
  EXPECT_TRUE(decoder.HasPartialEvent());
  ASSERT_TRUE(decoder.Feed(third.substr(7)));
  ASSERT_EQ(c.events.size(), 3u);
  EXPECT_EQ(c.events[2].object.metadata.name, "c");
  EXPECT_FALSE(decoder.HasPartialEvent());
}

TEST(ProtobufWatchDecoder, HandlerReturningFalseStopsWithoutError) {
  std::vector<std::string> names;
  std::function<bool(WatchEvent<VolumeAttachment> &&)> stop_after_one = [&](auto&& e) {
    names.push_back(e.object.metadata.name);
    return false;
  };
  ProtobufWatchDecoder<VolumeAttachment> decoder(stop_after_one);
  EXPECT_FALSE(decoder.Feed(WatchFrame("ADDED", Va("a", "1")) + WatchFrame("ADDED", Va("b", "2"))));
  EXPECT_EQ(names, std::vector<std::string>{"a"});
  EXPECT_TRUE(decoder.error().message.empty());
  EXPECT_FALSE(decoder.HasPartialEvent());
}

std::string FeedError(const std::string& stream) {
  CollectedEvents c;
  ProtobufWatchDecoder<VolumeAttachment> decoder(c.handler);
  EXPECT_FALSE(decoder.Feed(stream));
  return decoder.error().message;
}

TEST(ProtobufWatchDecoder, BadFramesStopWithATransportError) {
  EXPECT_EQ(FeedError(WatchFrame("RENAMED", Va("a", "1"))),
            "decoding watch event: unknown event type \"RENAMED\"");
  EXPECT_EQ(FeedError(WatchFrame("ADDED", Expired())),
            "decoding watch event: object: expected storage.k8s.io/v1 VolumeAttachment, got "
            "\"v1\" \"Status\"");
  EXPECT_EQ(FeedError(std::string("\x00\x00\x00\x02\x08\x01", 6)),
            "decoding watch event: type: field 1: varint value where a length-delimited value "
            "is expected");
  EXPECT_EQ(FeedError(std::string("\x00\x00\x00\x02\x0a\x00", 6)),
            "decoding watch event: missing type or object");
  EXPECT_EQ(FeedError(std::string("\x7f\xff\xff\xff", 4)),
            "decoding watch event: frame of 2147483647 bytes exceeds the limit");
  CollectedEvents c;
  ProtobufWatchDecoder<VolumeAttachment> decoder(c.handler);
  ASSERT_TRUE(decoder.Feed(WatchFrame("ADDED", Va("a", "1"))));
  EXPECT_FALSE(decoder.Feed(WatchFrame("ERROR", "k8s")));
  EXPECT_EQ(decoder.error().domain, base::ErrorDomain::kTransport);
}

// A kind without a protobuf decoder, as every custom resource is.
struct CustomKind {
  static constexpr KindFacts kFacts{.api_version = "example.com/v1", .kind = "CustomKind"};
  ObjectMeta metadata;
  static constexpr auto Fields() { return std::tuple{Field("metadata", &CustomKind::metadata)}; }
};

TEST(WatchStreamDecoder, ProtobufKindsAskForProtobufCustomKindsForJson) {
  EXPECT_EQ(WatchStreamDecoder<VolumeAttachment>::kWatchAccept,
            "application/vnd.kubernetes.protobuf, application/json");
  EXPECT_EQ(WatchStreamDecoder<CustomKind>::kWatchAccept, "application/json");
}

TEST(WatchStreamDecoder, ContentTypeChoosesTheDecoder) {
  CollectedEvents c;
  WatchStreamDecoder<VolumeAttachment> protobuf(c.handler);
  protobuf.SetContentType("application/vnd.kubernetes.protobuf;stream=watch");
  ASSERT_TRUE(protobuf.Feed(WatchFrame("ADDED", Va("from-protobuf", "1"))));
  WatchStreamDecoder<VolumeAttachment> json(c.handler);
  json.SetContentType("application/json");
  ASSERT_TRUE(json.Feed(
      R"({"type":"ADDED","object":{"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment","metadata":{"name":"from-json"}}})"
      "\n"));
  ASSERT_EQ(c.events.size(), 2u);
  EXPECT_EQ(c.events[0].object.metadata.name, "from-protobuf");
  EXPECT_EQ(c.events[1].object.metadata.name, "from-json");
  // Protobuf bytes where the server said JSON are an error, not events.
  WatchStreamDecoder<VolumeAttachment> mismatched(c.handler);
  mismatched.SetContentType("application/json");
  EXPECT_FALSE(mismatched.Feed(WatchFrame("ADDED", Va("x", "1")) + "\n"));
  EXPECT_FALSE(mismatched.error().message.empty());
}

}  // namespace
}  // namespace kube
