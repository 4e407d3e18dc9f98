#include <gtest/gtest.h>

#include <vector>

#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/api/watch_event.h"
#include "tests/unit/kube/collected_events.h"

namespace kube {
namespace {

using testing::CollectedEvents;

constexpr std::string_view kAdded =
    R"({"type":"ADDED","object":{"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment","metadata":{"name":"va-1","resourceVersion":"11"},"spec":{"attacher":"d","nodeName":"n","source":{"persistentVolumeName":"pv-1"}}}})"
    "\n";

TEST(WatchDecoder, DecodesEventsSplitAcrossArbitraryChunks) {
  CollectedEvents c;
  WatchDecoder<VolumeAttachment> decoder(c.handler);
  std::string stream =
      std::string(kAdded) +
      R"({"type":"BOOKMARK","object":{"kind":"VolumeAttachment","metadata":{"resourceVersion":"12"}}})"
      "\n";
  for (char ch : stream) ASSERT_TRUE(decoder.Feed(std::string_view(&ch, 1)));
  ASSERT_EQ(c.events.size(), 2u);
  EXPECT_EQ(c.events[0].type, WatchEventType::kAdded);
  EXPECT_EQ(c.events[0].object.metadata.name, "va-1");
  EXPECT_EQ(c.events[0].object.spec.attacher, "d");
  EXPECT_EQ(c.events[1].type, WatchEventType::kBookmark);
  EXPECT_EQ(c.events[1].object.metadata.resource_version, "12");
}

TEST(WatchDecoder, InitialEventsEndBookmarkIsRecognized) {
  CollectedEvents c;
  WatchDecoder<VolumeAttachment> decoder(c.handler);
  ASSERT_TRUE(decoder.Feed(
      R"({"type":"BOOKMARK","object":{"kind":"VolumeAttachment","metadata":{"resourceVersion":"13","annotations":{"k8s.io/initial-events-end":"true"}}}})"
      "\n"
      R"({"type":"BOOKMARK","object":{"kind":"VolumeAttachment","metadata":{"resourceVersion":"14"}}})"
      "\n"));
  ASSERT_EQ(c.events.size(), 2u);
  EXPECT_TRUE(IsInitialEventsEnd(c.events[0]));
  EXPECT_EQ(c.events[0].object.metadata.resource_version, "13");
  EXPECT_FALSE(IsInitialEventsEnd(c.events[1]));
}

TEST(WatchDecoder, ErrorEventCarriesStatusCode) {
  CollectedEvents c;
  WatchDecoder<VolumeAttachment> decoder(c.handler);
  ASSERT_TRUE(decoder.Feed(
      R"json({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 5 (20)","reason":"Expired","code":410}})json"
      "\n"));
  ASSERT_EQ(c.events.size(), 1u);
  EXPECT_EQ(c.events[0].type, WatchEventType::kError);
  EXPECT_EQ(c.events[0].error.code, 410);
  EXPECT_EQ(c.events[0].error.message, "too old resource version: 5 (20)");
}

TEST(WatchDecoder, GarbageLineStopsWithClearErrorAfterEarlierEvents) {
  CollectedEvents c;
  WatchDecoder<VolumeAttachment> decoder(c.handler);
  std::string stream = std::string(kAdded) + "{\"type\":\"ADDED\",\"object\":{\"metadata\":\n";
  EXPECT_FALSE(decoder.Feed(stream));
  EXPECT_EQ(c.events.size(), 1u);
  EXPECT_NE(decoder.error().message.find("decoding watch event"), std::string::npos);
}

TEST(WatchDecoder, UnknownTypeAndMissingObjectAreErrors) {
  for (std::string_view line : {R"({"type":"EXPLODED","object":{}})", R"({"type":"ADDED"})",
                                R"([1,2,3])", R"("just a string")"}) {
    CollectedEvents c;
    WatchDecoder<VolumeAttachment> decoder(c.handler);
    EXPECT_FALSE(decoder.Feed(std::string(line) + "\n")) << line;
    EXPECT_TRUE(c.events.empty()) << line;
    EXPECT_FALSE(decoder.error().message.empty()) << line;
  }
}

TEST(WatchDecoder, WrongFieldTypeInObjectIsAnError) {
  CollectedEvents c;
  WatchDecoder<VolumeAttachment> decoder(c.handler);
  EXPECT_FALSE(
      decoder.Feed(R"({"type":"ADDED","object":{"metadata":{"name":"x"},"spec":{"attacher":42}}})"
                   "\n"));
  EXPECT_TRUE(c.events.empty());
  EXPECT_NE(decoder.error().message.find("attacher"), std::string::npos);
}

TEST(WatchDecoder, TruncatedTrailingLineIsHeldUntilComplete) {
  CollectedEvents c;
  WatchDecoder<VolumeAttachment> decoder(c.handler);
  std::string full(kAdded);
  ASSERT_TRUE(decoder.Feed(full.substr(0, full.size() / 2)));
  EXPECT_TRUE(c.events.empty());
  ASSERT_TRUE(decoder.Feed(full.substr(full.size() / 2)));
  EXPECT_EQ(c.events.size(), 1u);
}

TEST(WatchDecoder, HandlerReturningFalseStopsWithoutError) {
  int seen = 0;
  std::function<bool(WatchEvent<VolumeAttachment> &&)> stop_after_one = [&](auto&&) {
    ++seen;
    return false;
  };
  WatchDecoder<VolumeAttachment> decoder(stop_after_one);
  EXPECT_FALSE(decoder.Feed(std::string(kAdded) + std::string(kAdded)));
  EXPECT_EQ(seen, 1);
  EXPECT_TRUE(decoder.error().message.empty());
}

}  // namespace
}  // namespace kube
