// docs/snapshots.md §9.4: ContentWriter's writes - each from the last answer,
// no GET before a write, one refresh on 409 - and upstream's error texts.
#include "snapshotter/content_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "snapshot/names.h"
#include "tests/unit/snapshotter/handler_fixtures.h"

namespace snapshotter::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

ContentStatus Unready(const ContentStatus&) {
  return kube::VolumeSnapshotContentStatus{.ready_to_use = false};
}

TEST(ContentWriter, EachWriteStartsFromThePreviousAnswer) {
  FakeSnapshotApi api;
  api.Put(Content());
  ContentWriter writer(api, Content());
  ASSERT_TRUE(writer.AddAnnotation(snapshot::kBeingCreatedAnnotation, "yes").ok());
  ASSERT_TRUE(writer.WriteStatus(Unready).ok());
  ASSERT_TRUE(writer.RemoveAnnotation(snapshot::kBeingCreatedAnnotation).ok());
  EXPECT_THAT(api.calls(), ElementsAre(kAddBeingCreated, WriteStatus("11", {{"readyToUse", false}}),
                                       kRemoveBeingCreated));
  EXPECT_EQ(writer.content().metadata.resource_version, "13");
}

TEST(ContentWriter, WritesNothingWhenAlreadyAsAsked) {
  FakeSnapshotApi api;
  kube::VolumeSnapshotContent content = Content([](auto& c) {
    c.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "no";  // any value counts
    c.metadata.finalizers.clear();
    c.status = kube::VolumeSnapshotContentStatus{.ready_to_use = false};
  });
  api.Put(content);
  ContentWriter writer(api, content);
  EXPECT_TRUE(writer.AddAnnotation(snapshot::kBeingCreatedAnnotation, "yes").ok());
  EXPECT_TRUE(writer.RemoveAnnotation(snapshot::kGroupSnapshotHandleAnnotation).ok());
  EXPECT_TRUE(writer.RemoveFinalizer(snapshot::kContentFinalizer).ok());
  EXPECT_TRUE(writer.WriteStatus(Unready).ok());
  EXPECT_THAT(api.calls(), IsEmpty());
}

TEST(ContentWriter, FinalizerOfAContentAlreadyGoneCountsAsRemoved) {
  FakeSnapshotApi api;  // the API server no longer has content-1
  ContentWriter writer(api, Content());
  EXPECT_TRUE(writer.RemoveFinalizer(snapshot::kContentFinalizer).ok());
  EXPECT_THAT(api.calls(), ElementsAre(RemoveFinalizer()));
}

TEST(ContentWriter, FailedWriteReadsAsUpstreamsControllerUpdateError) {
  FakeSnapshotApi api({{"patch", "volumesnapshotcontents", "", kBoom}});
  api.Put(Content());
  ContentWriter writer(api, Content());
  base::Status status = writer.AddAnnotation(snapshot::kBeingCreatedAnnotation, "yes");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message,
            "snapshot controller failed to update content-1 on API server: boom");
  EXPECT_TRUE(status.error().IsHttp(500));
  EXPECT_EQ(writer.content(), Content());  // unchanged by a failed write
}

TEST(ContentWriter, FailedReadAfterConflictReadsAsUpstreamsGetError) {
  FakeSnapshotApi api({{"get", "volumesnapshotcontents", "", kBoom}});
  api.Put(Content());
  api.BumpResourceVersion("content-1");
  ContentWriter writer(api, Content());
  base::Status status = writer.WriteStatus(Unready);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "error get snapshot content content-1 from api server: boom");
  EXPECT_THAT(api.calls(),
              ElementsAre(WriteStatus("10", {{"readyToUse", false}}), GetContent("content-1")));
}

}  // namespace
}  // namespace snapshotter::testing
