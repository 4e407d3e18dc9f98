#include "kube/client/patch_from_cache.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <deque>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/metadata_patch.h"

namespace kube {
namespace {

using ::testing::ElementsAre;

const base::Error kStale =
    base::Error::Http(422, "the server rejected our request due to an error in our request");

PersistentVolume Pv(std::vector<InternedString> finalizers) {
  PersistentVolume pv;
  pv.metadata.name = "pv-1";
  pv.metadata.has_finalizers_field = !finalizers.empty();
  pv.metadata.finalizers = std::move(finalizers);
  return pv;
}

// Scripted API: each send and read takes the next answer of its script (a
// send with no answer left succeeds) and is recorded as "send <patch>" or
// "read".
class ScriptedApi {
 public:
  std::deque<base::Status> send_answers;
  std::deque<base::Result<PersistentVolume>> read_answers;
  std::vector<std::string> calls;

  base::Status Run(const PersistentVolume& cached) {
    return PatchFromCache(
        cached,
        [](const PersistentVolume& copy) {
          JsonPatch patch;
          AddFinalizerOps(copy.metadata, "f", patch);
          return patch;
        },
        [this](const std::string& patch) -> base::Result<PersistentVolume> {
          calls.push_back("send " + patch);
          if (send_answers.empty()) return PersistentVolume();
          base::Status answer = send_answers.front();
          send_answers.pop_front();
          if (!answer.ok()) return answer.error();
          return PersistentVolume();
        },
        [this]() -> base::Result<PersistentVolume> {
          calls.push_back("read");
          auto answer = read_answers.front();
          read_answers.pop_front();
          return answer;
        });
  }
};

const std::string kAddToAbsent =
    R"(send [{"op":"test","path":"/metadata/finalizers","value":null},)"
    R"({"op":"add","path":"/metadata/finalizers","value":["f"]}])";
const std::string kAddAfterOther =
    R"(send [{"op":"test","path":"/metadata/finalizers","value":["other"]},)"
    R"({"op":"add","path":"/metadata/finalizers/-","value":"f"}])";

TEST(PatchFromCache, EmptyPatchSendsNothing) {
  ScriptedApi api;
  EXPECT_TRUE(api.Run(Pv({"f"})).ok());
  EXPECT_TRUE(api.calls.empty());
}

TEST(PatchFromCache, AcceptedPatchIsSentOnce) {
  ScriptedApi api;
  EXPECT_TRUE(api.Run(Pv({})).ok());
  EXPECT_THAT(api.calls, ElementsAre(kAddToAbsent));
}

TEST(PatchFromCache, RefusedPatchIsRecomputedFromAFreshCopyAndSentAgainAtOnce) {
  ScriptedApi api;
  api.send_answers = {kStale};
  api.read_answers = {Pv({"other"})};
  EXPECT_TRUE(api.Run(Pv({})).ok());
  EXPECT_THAT(api.calls, ElementsAre(kAddToAbsent, "read", kAddAfterOther));
}

TEST(PatchFromCache, FreshCopyThatNeedsNothingEndsWithoutAnotherSend) {
  ScriptedApi api;
  api.send_answers = {kStale};
  api.read_answers = {Pv({"other", "f"})};
  EXPECT_TRUE(api.Run(Pv({})).ok());
  EXPECT_THAT(api.calls, ElementsAre(kAddToAbsent, "read"));
}

// An object that changes on every read, e.g. under another writer's storm.
TEST(PatchFromCache, RefusalsEndAfterTheAttemptLimitWithTheLastRefusal) {
  ScriptedApi api;
  std::vector<InternedString> finalizers;
  std::vector<std::string> want = {kAddToAbsent};
  for (int i = 1; i <= kPatchFromCacheAttempts; ++i) {
    api.send_answers.push_back(kStale);
    finalizers.push_back("o" + std::to_string(i));
    api.read_answers.push_back(Pv(finalizers));
    if (i == kPatchFromCacheAttempts) break;
    want.push_back("read");
    want.push_back(R"(send [{"op":"test","path":"/metadata/finalizers","value":)" +
                   nlohmann::json(finalizers).dump() +
                   R"(},{"op":"add","path":"/metadata/finalizers/-","value":"f"}])");
  }
  base::Status status = api.Run(Pv({}));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(IsInvalid(status.error()));
  EXPECT_EQ(api.calls, want);
}

// A refusal the fresh copy does not explain, e.g. a failed validation.
TEST(PatchFromCache, PatchThatComesOutTheSameFromAFreshCopyIsNotSentAgain) {
  ScriptedApi api;
  api.send_answers = {kStale, kStale};
  api.read_answers = {Pv({"other"}), Pv({"other"})};
  base::Status status = api.Run(Pv({}));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(IsInvalid(status.error()));
  EXPECT_THAT(api.calls, ElementsAre(kAddToAbsent, "read", kAddAfterOther, "read"));
}

TEST(PatchFromCache, OtherSendErrorsAreReturnedWithoutReading) {
  ScriptedApi api;
  api.send_answers = {base::Error::Http(500, "boom")};
  base::Status status = api.Run(Pv({}));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "boom");
  EXPECT_THAT(api.calls, ElementsAre(kAddToAbsent));
}

TEST(PatchFromCache, FailedReadIsReturned) {
  ScriptedApi api;
  api.send_answers = {kStale};
  api.read_answers = {base::Error::Http(404, "persistentvolumes \"pv-1\" not found")};
  base::Status status = api.Run(Pv({}));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(IsNotFound(status.error()));
  EXPECT_THAT(api.calls, ElementsAre(kAddToAbsent, "read"));
}

}  // namespace
}  // namespace kube
