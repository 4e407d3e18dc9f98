// docs/attacher.md §5.6: without PUBLISH_UNPUBLISH_VOLUME the attacher only marks
// VolumeAttachments attached: no finalizers, no CSI calls, PVs untouched.
#include "attacher/trivial_handler.h"

#include <gtest/gtest.h>

#include "tests/unit/attacher/handler_fixtures.h"

namespace attacher::handler_testing {
namespace {

struct TrivialCase {
  std::string name = {};
  kube::VolumeAttachment va = {};
  std::vector<ApiFailure> api_failures = {};
  std::vector<ApiCall> want_api = {};
  std::string want_error = {};  // empty: success
};

class TrivialHandlerSync : public ::testing::TestWithParam<TrivialCase> {};

TEST_P(TrivialHandlerSync, VolumeAttachment) {
  const TrivialCase& c = GetParam();
  FakeKubernetesApi api(c.api_failures);
  TrivialHandler handler(std::string(kDriver), api);

  base::Status status = handler.SyncVolumeAttachment(c.va);

  if (c.want_error.empty()) {
    EXPECT_TRUE(status.ok()) << status.error().message;
  } else {
    EXPECT_FALSE(status.ok());
    EXPECT_EQ(status.error().message, c.want_error);
  }
  EXPECT_THAT(api.calls(), ::testing::ElementsAreArray(c.want_api));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TrivialHandlerSync,
    ::testing::ValuesIn(std::vector<TrivialCase>{
        {.name = "UnattachedVaIsMarkedAttachedWithoutFinalizer",
         .va = Va(),
         .want_api = {PatchVaStatus("va-1", R"({"status":{"attachError":null,"attached":true}})")}},
        {.name = "MarkingAttachedClearsAttachError",
         .va = Va([](auto& va) {
           va.status.attach_error = kube::VolumeError{"t", "old", 3};
         }),
         .want_api = {PatchVaStatus("va-1", R"({"status":{"attachError":null,"attached":true}})")}},
        {.name = "AttachedVaIsLeftAlone", .va = AttachedVa()},
        {.name = "DeletedVaIsLeftAlone",
         .va = Va([](auto& va) { va.metadata.deletion_timestamp = std::string(kDeleted); })},
        {.name = "FailedPatchIsReturned",
         .va = Va(),
         .api_failures = {{"patch", "volumeattachments", "status",
                           base::Error::Http(403, "forbidden")}},
         .want_api = {PatchVaStatus("va-1", R"({"status":{"attachError":null,"attached":true}})")},
         .want_error = "failed to mark as attached: forbidden"},
    }),
    [](const auto& info) { return info.param.name; });

TEST(TrivialHandler, PersistentVolumesAndForceSyncsAreNoOps) {
  FakeKubernetesApi api;
  TrivialHandler handler(std::string(kDriver), api);
  handler.RequestForceSync("va-1");

  EXPECT_TRUE(handler
                  .SyncPersistentVolume(
                      Pv([](auto& pv) { pv.metadata.deletion_timestamp = std::string(kDeleted); }))
                  .ok());
  EXPECT_TRUE(handler.SyncVolumeAttachment(AttachedVa()).ok());
  EXPECT_TRUE(api.calls().empty());
}

}  // namespace
}  // namespace attacher::handler_testing
