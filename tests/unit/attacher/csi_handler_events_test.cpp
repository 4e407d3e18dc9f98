// docs/attacher.md §7 (external-attacher#363): a failed attach or detach is
// reported as an Event carrying exactly the message saved in
// status.attachError / detachError; success reports nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/attacher/handler_fixtures.h"

namespace attacher::handler_testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class CsiHandlerEvents : public HandlerWorld {
 protected:
  base::Status Sync(const kube::VolumeAttachment& va) {
    Fill(vas_, {va});
    CsiHandler::Options options;
    options.events = &events_;
    CsiHandler handler(std::string(kDriver), vas_, pvs_, csi_nodes_, api_, publisher_, options,
                       clock_);
    return handler.SyncVolumeAttachment(va);
  }

  FakeAttachmentEvents events_;
};

TEST_F(CsiHandlerEvents, FailedPublishReportsAttachFailedWithSavedMessage) {
  publisher_.SetScript(
      {.publish_error = base::Error::Grpc(13, "rpc error: code = Internal desc = boom")});
  EXPECT_FALSE(Sync(Va()).ok());
  EXPECT_THAT(events_.events(),
              ElementsAre("AttachFailed va-1: rpc error: code = Internal desc = boom"));
  EXPECT_EQ(api_.calls().back(),
            PatchVaStatus("va-1", AttachErrorBody("rpc error: code = Internal desc = boom", 13)));
}

TEST_F(CsiHandlerEvents, FailedPreparationReportsAttachFailed) {
  EXPECT_FALSE(Sync(Va([](auto& va) { va.spec.node_name = "node-unknown"; })).ok());
  auto events = events_.events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_TRUE(events[0].starts_with("AttachFailed va-1: ")) << events[0];
  EXPECT_NE(events[0].find("node-unknown"), std::string::npos) << events[0];
}

TEST_F(CsiHandlerEvents, FailedUnpublishReportsDetachFailedWithSavedMessage) {
  publisher_.SetScript(
      {.unpublish_error = base::Error::Grpc(14, "rpc error: code = Unavailable desc = x")});
  EXPECT_FALSE(Sync(DeletedVa()).ok());
  EXPECT_THAT(events_.events(),
              ElementsAre("DetachFailed va-1: rpc error: code = Unavailable desc = x"));
  EXPECT_EQ(api_.calls().back(),
            PatchVaStatus("va-1", DetachErrorBody("rpc error: code = Unavailable desc = x")));
}

TEST_F(CsiHandlerEvents, SuccessfulAttachAndDetachReportNothing) {
  EXPECT_TRUE(Sync(Va()).ok());
  EXPECT_TRUE(Sync(DeletedVa()).ok());
  EXPECT_THAT(events_.events(), IsEmpty());
}

}  // namespace
}  // namespace attacher::handler_testing
