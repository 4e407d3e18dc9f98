// docs/resizer.md §9 (#458): the resize and modify controllers take turns on
// a claim, and a status write replaces the cached claim it was made from.
// The turn logic and the write-back alone, then both controllers over one
// claim cache: a modify sync that finds the claim's turn taken by a resize
// sync (its expansion held in the driver) ends, and runs once that resize
// sync has finished its writes.
#include "resizer/claim_turns.h"

#include <gtest/gtest.h>

#include <optional>
#include <thread>

#include "kube/runtime/run_controllers.h"
#include "resizer/modify_controller.h"
#include "resizer/resize_controller.h"
#include "tests/support/fake_lister_watcher.h"
#include "tests/unit/resizer/controller_fakes.h"

namespace resizer {
namespace {

using namespace std::chrono_literals;
using kube::WatchEventType;
using testing::BoundClaim;
using testing::CallLog;
using testing::kResizeDriver;
using testing::LoggedEvents;
using testing::RecordingApi;
using testing::ScriptedExpander;
using testing::ScriptedModifier;
using testing::VolumeOf;

TEST(ClaimTurnsTest, TakerFindingTheTurnTakenIsWokenOnceWhenItIsGivenBack) {
  ClaimTurns turns;
  int woken = 0;
  std::optional<ClaimTurns::Turn> first = turns.TryTake("ns/a", [] { FAIL() << "not taken"; });
  ASSERT_TRUE(first.has_value());
  EXPECT_FALSE(turns.TryTake("ns/a", [&] { ++woken; }).has_value());
  EXPECT_TRUE(turns.TryTake("ns/b", [] { FAIL() << "not taken"; }).has_value())
      << "another claim's turn is its own";
  EXPECT_EQ(woken, 0);
  first.reset();
  EXPECT_EQ(woken, 1);
  std::optional<ClaimTurns::Turn> again = turns.TryTake("ns/a", [] { FAIL() << "not taken"; });
  EXPECT_TRUE(again.has_value());
  again.reset();
  EXPECT_EQ(woken, 1) << "a wake is used once";
}

TEST(ClaimTurnsTest, MovedTurnIsGivenBackOnceByItsLastHolder) {
  ClaimTurns turns;
  int woken = 0;
  std::optional<ClaimTurns::Turn> first = turns.TryTake("ns/a", [] {});
  ASSERT_TRUE(first.has_value());
  {
    ClaimTurns::Turn moved = std::move(*first);
    first.reset();  // the moved-from turn gives nothing back
    EXPECT_FALSE(turns.TryTake("ns/a", [&] { ++woken; }).has_value());
    EXPECT_EQ(woken, 0);
  }
  EXPECT_EQ(woken, 1);
}

// An API whose status patches fail.
class RefusingApi final : public ResizerApi {
 public:
  base::Result<kube::PersistentVolumeClaim> PatchClaimStatus(const std::string&, const std::string&,
                                                             const std::string&) override {
    return base::Error("Conflict");
  }
  base::Result<kube::PersistentVolume> PatchVolume(const std::string&,
                                                   const std::string&) override {
    return base::Error("unused");
  }
  base::Result<kube::Secret> GetSecret(const std::string&, const std::string&) override {
    return base::Error("unused");
  }
};

class WriteClaimStatusTest : public ::testing::Test {
 protected:
  std::shared_ptr<const kube::PersistentVolumeClaim> Cache(
      const kube::PersistentVolumeClaim& claim) {
    auto stored = std::make_shared<const kube::PersistentVolumeClaim>(claim);
    claims_.Upsert(stored);
    return stored;
  }
  std::string CachedVersion() const {
    return claims_.Get("ns", "claim")->metadata.resource_version;
  }

  CallLog log_;
  RecordingApi api_{log_};
  kube::Store<kube::PersistentVolumeClaim> claims_;
};

TEST_F(WriteClaimStatusTest, AnswerReplacesTheCachedVersionThePatchWasMadeFrom) {
  const kube::PersistentVolumeClaim base = BoundClaim("claim");
  api_.Remember(base);
  Cache(base);
  base::Result<kube::PersistentVolumeClaim> written = WriteClaimStatus(api_, claims_, base, "{}");
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(CachedVersion(), "written");
}

TEST_F(WriteClaimStatusTest, NewerCachedVersionIsKept) {
  const kube::PersistentVolumeClaim base = BoundClaim("claim");
  api_.Remember(base);
  kube::PersistentVolumeClaim newer = base;
  newer.metadata.resource_version = "2";  // a watch event came first
  Cache(newer);
  ASSERT_TRUE(WriteClaimStatus(api_, claims_, base, "{}").ok());
  EXPECT_EQ(CachedVersion(), "2");
}

TEST_F(WriteClaimStatusTest, RefusedPatchLeavesTheCacheAlone) {
  const kube::PersistentVolumeClaim base = BoundClaim("claim");
  Cache(base);
  RefusingApi refusing;
  base::Result<kube::PersistentVolumeClaim> written =
      WriteClaimStatus(refusing, claims_, base, "{}");
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().message, "Conflict");
  EXPECT_EQ(CachedVersion(), "1");
}

kube::VolumeAttributesClass FastClass() {
  kube::VolumeAttributesClass klass;
  klass.metadata.name = "fast";
  klass.metadata.resource_version = "1";
  klass.driver_name = kResizeDriver;
  klass.parameters = {{"iops", "3000"}};
  return klass;
}

// Both controllers, one worker each, over one claim cache and one ClaimTurns.
class SharedClaimTest : public ::testing::Test {
 protected:
  void Start(std::vector<kube::PersistentVolumeClaim> claims,
             std::vector<kube::PersistentVolume> volumes) {
    for (const kube::PersistentVolumeClaim& claim : claims) api_.Remember(claim);
    claims_.SetItems(std::move(claims));
    volumes_.SetItems(std::move(volumes));
    classes_.SetItems({FastClass()});
    informers_.UseSource(claims_);
    informers_.UseSource(volumes_);
    informers_.UseSource(classes_);
    informers_.UseSource(pods_);
    const component::LoopOptions loop{.worker_threads = 1,
                                      .retry_interval_start = 10ms,
                                      .retry_interval_max = 50ms,
                                      .resync_period = 0ms};
    resize_.emplace(kResizeDriver, ResizeControllerOptions{.loop = loop}, informers_, turns_, api_,
                    expander_, events_, nullptr, base::Clock::Real());
    modify_.emplace(kResizeDriver, ModifyControllerOptions{.loop = loop}, informers_, turns_, api_,
                    modifier_, events_, nullptr, base::Clock::Real());
    run_ = std::jthread([this](std::stop_token stop) {
      kube::RunWithInformers(informers_, stop, *resize_, *modify_);
    });
  }
  void TearDown() override {
    expander_.Release();
    run_.request_stop();
    if (run_.joinable()) run_.join();
  }

  CallLog log_;
  RecordingApi api_{log_};
  ScriptedExpander expander_{log_};
  ScriptedModifier modifier_{log_};
  LoggedEvents events_{log_};
  testsupport::FakeListerWatcher<kube::PersistentVolumeClaim> claims_;
  testsupport::FakeListerWatcher<kube::PersistentVolume> volumes_;
  testsupport::FakeListerWatcher<kube::VolumeAttributesClass> classes_;
  testsupport::FakeListerWatcher<ClaimPod> pods_;
  kube::InformerSet informers_{kube::ReflectorOptions{}};
  ClaimTurns turns_;
  std::optional<ResizeController> resize_;
  std::optional<ModifyController> modify_;
  std::jthread run_;
};

TEST_F(SharedClaimTest, ModifyOfAClaimBeingResizedRunsOnceTheResizeSyncHasWritten) {
  expander_.Hold();
  kube::PersistentVolumeClaim claim = BoundClaim("both");  // 1Gi asking for 2Gi, no class yet
  Start({claim}, {VolumeOf(claim)});
  ASSERT_TRUE(log_.Await("EXPAND pv-both")) << log_.Dump();  // the resize sync holds the turn

  kube::PersistentVolumeClaim wanting = claim;
  wanting.metadata.resource_version = "2";
  wanting.spec.volume_attributes_class_name = "fast";
  api_.Remember(wanting);
  claims_.Send(WatchEventType::kModified, wanting);
  // One modify worker: once a claim queued after it was modified, the modify
  // sync of "both" has run, and found the turn taken.
  kube::PersistentVolumeClaim sentinel = BoundClaim("sentinel", "1Gi");
  sentinel.spec.volume_attributes_class_name = "fast";
  api_.Remember(sentinel);
  volumes_.Send(WatchEventType::kAdded, VolumeOf(sentinel));
  claims_.Send(WatchEventType::kAdded, sentinel);
  ASSERT_TRUE(log_.Await("MODIFY pv-sentinel")) << log_.Dump();
  EXPECT_EQ(log_.IndexOf("MODIFY pv-both"), -1) << log_.Dump();

  expander_.Release();
  ASSERT_TRUE(log_.Await("MODIFY pv-both")) << log_.Dump();
  const int resized = log_.IndexOf("EVENT Normal both VolumeResizeSuccessful");
  const int marked = log_.IndexOf(R"(PATCH-STATUS ns/both {"metadata":{"resourceVersion":"2"})");
  EXPECT_TRUE(resized >= 0 && resized < marked) << log_.Dump();
  EXPECT_EQ(log_.IndexOf("EVENT Warning both"), -1) << log_.Dump();
}

}  // namespace
}  // namespace resizer
