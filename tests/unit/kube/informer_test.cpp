#include "kube/runtime/informer.h"

#include <gtest/gtest.h>

#include <future>
#include <stop_token>

#include "base/clock.h"
#include "scripted_api.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using testing::kHandOffTimeout;
using testing::MakeEvent;
using testing::MakeVa;
using testing::Page;
using testing::VA;

// Reflector options that list with a plain LIST, so a scripted List answers.
ReflectorOptions PagedLists() {
  ReflectorOptions options;
  options.watch_list = false;
  return options;
}

// WaitForCacheSync, bounded in real time: a broken informer fails the test
// instead of hanging it.
template <class... Informers>
bool SyncsWithinHandOff(const Informers&... informers) {
  std::stop_source give_up;
  auto synced = std::async(std::launch::async,
                           [&] { return WaitForCacheSync(give_up.get_token(), informers...); });
  if (synced.wait_for(kHandOffTimeout) == std::future_status::timeout) give_up.request_stop();
  return synced.get();
}

class InformerTest : public ::testing::Test {
 protected:
  base::FakeClock clock_;
  testing::ScriptedListerWatcher api_;
  Store<VA> store_;
  testing::RecordingHandler first_;
  testing::RecordingHandler second_;
  Informer<VA> informer_{api_, store_, PagedLists(), clock_};
};

TEST_F(InformerTest, FillsTheStoreAndTellsEveryHandlerInOrder) {
  api_.ScriptList(Page({MakeVa("a", "1"), MakeVa("b", "2")}, "5"));
  api_.ScriptWatch({{MakeEvent(WatchEventType::kModified, MakeVa("a", "6"))}, {}});
  informer_.AddEventHandler(first_);
  informer_.AddEventHandler(second_);
  informer_.Start();
  ASSERT_TRUE(SyncsWithinHandOff(informer_));
  EXPECT_TRUE(informer_.HasSynced());
  ASSERT_TRUE(first_.AwaitCount(3));
  ASSERT_TRUE(second_.AwaitCount(3));
  const std::vector<std::string> expected = {"add a", "add b", "update a 1->6"};
  EXPECT_EQ(first_.events(), expected);
  EXPECT_EQ(second_.events(), expected);
  EXPECT_EQ(store_.GetByKey("a")->metadata.resource_version, "6");
  EXPECT_EQ(store_.Size(), 2u);
}

TEST_F(InformerTest, WithoutHandlersOnlyFillsTheStore) {
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  informer_.Start();
  ASSERT_TRUE(SyncsWithinHandOff(informer_));
  EXPECT_EQ(store_.Size(), 1u);
}

TEST_F(InformerTest, WaitForCacheSyncWaitsForTheFirstCompleteList) {
  api_.ScriptList(base::Error::Transport("connection refused"));
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  informer_.Start();
  auto synced = std::async(std::launch::async, [&] { return SyncsWithinHandOff(informer_); });
  // The reflector backs off on the fake clock: nothing can sync the cache
  // until time moves.
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({clock_.Now() + 800ms}, kHandOffTimeout));
  EXPECT_FALSE(informer_.HasSynced());
  EXPECT_EQ(synced.wait_for(0s), std::future_status::timeout);
  clock_.Advance(800ms);
  ASSERT_EQ(synced.wait_for(kHandOffTimeout), std::future_status::ready);
  EXPECT_TRUE(synced.get());
  EXPECT_EQ(store_.Size(), 1u);
}

TEST_F(InformerTest, WaitForCacheSyncGivesUpOnStop) {
  api_.ScriptList(base::Error::Http(403, "forbidden"));
  informer_.Start();
  std::stop_source stop;
  auto synced =
      std::async(std::launch::async, [&] { return informer_.WaitForCacheSync(stop.get_token()); });
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({clock_.Now() + 800ms}, kHandOffTimeout));
  stop.request_stop();
  ASSERT_EQ(synced.wait_for(kHandOffTimeout), std::future_status::ready);
  EXPECT_FALSE(synced.get());
}

TEST_F(InformerTest, StopEndsTheWatchBeforeReturning) {
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  informer_.Start();
  ASSERT_TRUE(api_.AwaitWatchCalls(1));
  informer_.Stop();
  EXPECT_FALSE(api_.watching());
  informer_.Stop();  // again: nothing left to stop
}

TEST_F(InformerTest, WaitForCacheSyncOfSeveralWaitsForAll) {
  testing::ScriptedListerWatcher other_api;
  Store<VA> other_store;
  Informer<VA> other(other_api, other_store, PagedLists(), clock_);
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  other_api.ScriptList(base::Error::Transport("connection refused"));
  other_api.ScriptList(Page({MakeVa("b", "1")}, "5"));
  informer_.Start();
  other.Start();
  ASSERT_TRUE(SyncsWithinHandOff(informer_));
  // Only `other` is left, backing off on the clock.
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({clock_.Now() + 800ms}, kHandOffTimeout));
  std::stop_source stopped;
  stopped.request_stop();
  EXPECT_FALSE(WaitForCacheSync(stopped.get_token(), informer_, other));
  clock_.Advance(800ms);
  EXPECT_TRUE(SyncsWithinHandOff(informer_, other));
}

}  // namespace
}  // namespace kube
