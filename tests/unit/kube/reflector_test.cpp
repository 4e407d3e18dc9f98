#include "kube/runtime/reflector.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "scripted_api.h"
#include "tests/support/heap_holes.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using testing::MakeEvent;
using testing::MakeVa;
using testing::Page;
using testing::VA;

WatchEvent<VA> InitialEventsEnd(std::string rv) {
  auto e = MakeEvent(WatchEventType::kBookmark, MakeVa("", std::move(rv)));
  e.object.metadata.annotations[kInitialEventsEndAnnotation] = "true";
  return e;
}

WatchEvent<VA> Gone() {
  WatchEvent<VA> e;
  e.type = WatchEventType::kError;
  e.error = base::Error::Http(410, "too old resource version");
  return e;
}

// The paged LIST path: what a server without streaming lists gets.
ReflectorOptions Paged() {
  ReflectorOptions options;
  options.watch_list = false;
  return options;
}

class ReflectorTest : public ::testing::Test {
 protected:
  void Start(ReflectorOptions options) {
    reflector_ = std::make_unique<Reflector<VA>>(api_, store_, handler_, options, clock_);
    thread_ = std::jthread([this](std::stop_token stop) { reflector_->Run(stop); });
  }
  void TearDown() override {
    thread_.request_stop();
    if (thread_.joinable()) thread_.join();
  }

  base::FakeClock clock_;
  testing::ScriptedListerWatcher api_;
  Store<VA> store_;
  testing::RecordingHandler handler_;
  std::unique_ptr<Reflector<VA>> reflector_;
  std::jthread thread_;
};

TEST_F(ReflectorTest, ListsAllPagesThenWatchesFromListResourceVersion) {
  api_.ScriptList(Page({MakeVa("a", "1"), MakeVa("b", "2")}, "", "tok"));
  api_.ScriptList(Page({MakeVa("c", "3")}, "10"));
  ReflectorOptions options = Paged();
  options.page_size = 2;
  Start(options);
  ASSERT_TRUE(api_.AwaitWatchCalls(1));
  EXPECT_TRUE(reflector_->HasSynced());
  EXPECT_EQ(store_.Size(), 3u);
  EXPECT_EQ(handler_.events(), (std::vector<std::string>{"add a", "add b", "add c"}));
  auto lists = api_.list_calls();
  ASSERT_EQ(lists.size(), 2u);
  EXPECT_EQ(lists[0].limit, 2);
  EXPECT_EQ(lists[1].continue_token, "tok");
  auto watches = api_.watch_calls();
  EXPECT_EQ(watches[0].resource_version, "10");
  EXPECT_TRUE(watches[0].allow_bookmarks);
}

TEST_F(ReflectorTest, WatchEventsUpdateStoreAndResumeFromLastResourceVersion) {
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  api_.ScriptWatch({{MakeEvent(WatchEventType::kAdded, MakeVa("b", "6")),
                     MakeEvent(WatchEventType::kModified, MakeVa("a", "7")),
                     MakeEvent(WatchEventType::kDeleted, MakeVa("b", "8")),
                     MakeEvent(WatchEventType::kBookmark, MakeVa("", "9"))},
                    {}});
  Start(Paged());
  ASSERT_TRUE(api_.AwaitWatchCalls(2));
  EXPECT_EQ(handler_.events(),
            (std::vector<std::string>{"add a", "add b", "update a 1->7", "delete b"}));
  EXPECT_EQ(api_.watch_calls()[1].resource_version, "9");
  EXPECT_EQ(api_.list_calls().size(), 1u) << "a watch that ends normally must not relist";
  ASSERT_NE(store_.Get("", "a"), nullptr);
  EXPECT_EQ(store_.Get("", "a")->metadata.resource_version, "7");
  EXPECT_EQ(store_.Get("", "b"), nullptr);
}

TEST_F(ReflectorTest, RepeatedEventWithSameResourceVersionIsNotReportedTwice) {
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  api_.ScriptWatch({{MakeEvent(WatchEventType::kModified, MakeVa("a", "1")),
                     MakeEvent(WatchEventType::kAdded, MakeVa("a", "1"))},
                    {}});
  Start(Paged());
  ASSERT_TRUE(api_.AwaitWatchCalls(2));
  EXPECT_EQ(handler_.events(), (std::vector<std::string>{"add a"}));
}

TEST_F(ReflectorTest, GoneErrorEventRelistsAndReportsOnlyTheDifferences) {
  api_.ScriptList(Page({MakeVa("keep", "1"), MakeVa("change", "2"), MakeVa("vanish", "3")}, "5"));
  api_.ScriptWatch({{Gone()}, {}});
  api_.ScriptList(Page({MakeVa("keep", "1"), MakeVa("change", "20"), MakeVa("new", "21")}, "30"));
  Start(Paged());
  ASSERT_TRUE(api_.AwaitWatchCalls(2));
  EXPECT_EQ(handler_.events(),
            (std::vector<std::string>{"add keep", "add change", "add vanish", "update change 2->20",
                                      "add new", "delete vanish", "relisted"}));
  EXPECT_EQ(api_.watch_calls()[1].resource_version, "30");
}

// A watch that fails is not resumed: what the server applied meanwhile (a
// write whose answer was lost among it) is read by a list, and the owner is
// told the store was relisted.
TEST_F(ReflectorTest, FailedWatchIsFollowedByAListThatIsReportedAsARelist) {
  api_.ScriptList(Page({MakeVa("a", "1"), MakeVa("b", "2")}, "5"));
  api_.ScriptWatch({{MakeEvent(WatchEventType::kModified, MakeVa("a", "6"))},
                    base::Error::Transport("TLS read: connection lost")});
  api_.ScriptList(Page({MakeVa("a", "7"), MakeVa("c", "8")}, "9"));
  const base::Clock::TimePoint start = clock_.Now();
  Start(Paged());
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 800ms}, testing::kHandOffTimeout));
  clock_.Advance(800ms);
  ASSERT_TRUE(api_.AwaitWatchCalls(2));
  EXPECT_EQ(api_.list_calls().size(), 2u);
  EXPECT_EQ(api_.watch_calls()[1].resource_version, "9");
  EXPECT_EQ(handler_.events(),
            (std::vector<std::string>{"add a", "add b", "update a 1->6", "update a 6->7", "add c",
                                      "delete b", "relisted"}));
}

TEST_F(ReflectorTest, GoneWhenOpeningWatchRelists) {
  api_.ScriptList(Page({}, "5"));
  api_.ScriptWatch({{}, base::Error::Http(410, "resourceVersion too old")});
  api_.ScriptList(Page({MakeVa("x", "40")}, "41"));
  Start(Paged());
  ASSERT_TRUE(api_.AwaitWatchCalls(2));
  EXPECT_EQ(api_.list_calls().size(), 2u);
  EXPECT_EQ(handler_.events(), (std::vector<std::string>{"add x", "relisted"}));
}

TEST_F(ReflectorTest, ExpiredContinueTokenRestartsListWithoutPaging) {
  api_.ScriptList(Page({MakeVa("a", "1")}, "", "tok"));
  api_.ScriptList(base::Error::Http(410, "continue token expired"));
  api_.ScriptList(Page({MakeVa("a", "1"), MakeVa("b", "2")}, "9"));
  ReflectorOptions options = Paged();
  options.page_size = 1;
  Start(options);
  ASSERT_TRUE(api_.AwaitWatchCalls(1));
  auto lists = api_.list_calls();
  ASSERT_EQ(lists.size(), 3u);
  EXPECT_EQ(lists[2].limit, 0);
  EXPECT_TRUE(lists[2].continue_token.empty());
  EXPECT_EQ(handler_.events(), (std::vector<std::string>{"add a", "add b"}));
}

TEST_F(ReflectorTest, ListErrorsBackOffExponentiallyOnTheClock) {
  api_.ScriptList(base::Error::Transport("TLS read: connection lost"));
  api_.ScriptList(base::Error::Http(500, "storage is (re)initializing"));
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  const base::Clock::TimePoint start = clock_.Now();
  Start(Paged());
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 800ms}, testing::kHandOffTimeout));
  EXPECT_EQ(api_.list_calls().size(), 1u);
  clock_.Advance(800ms);
  // Second failure: now the backoff is 1.6 s.
  ASSERT_TRUE(api_.AwaitListCalls(2));
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 800ms + 1600ms}, testing::kHandOffTimeout));
  EXPECT_EQ(api_.list_calls().size(), 2u);
  clock_.Advance(1600ms);
  ASSERT_TRUE(api_.AwaitWatchCalls(1));
  EXPECT_FALSE(handler_.events().empty());
  EXPECT_TRUE(reflector_->HasSynced());
}

// A refused connection (the server down or restarting) is tried again at
// the initial interval however often it is refused, so the cache catches up
// within that of the server's return; answers that are errors (a restarted
// server's authorizer still warming up) back off exponentially from there.
// A restarted API server: refused connections, then the errors of its
// warm-up (403 before its authorizer syncs, 429 while its watch cache
// fills) are retried at the initial interval for backoff_max after the last
// refusal; after that window errors back off exponentially again.
TEST_F(ReflectorTest, RefusedConnectionsAndTheWarmUpAfterThemAreRetriedAtTheInitialInterval) {
  const base::Error refused =
      base::Error::Transport("connecting to 127.0.0.1 port 6443: Connection refused", ECONNREFUSED);
  api_.ScriptList(refused);
  api_.ScriptList(refused);
  api_.ScriptList(base::Error::Http(429, "storage is (re)initializing"));
  for (int i = 0; i < 6; ++i) api_.ScriptList(base::Error::Http(403, "forbidden"));
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  ReflectorOptions options = Paged();
  options.backoff_max = 4s;
  Start(options);
  size_t lists = 1;
  // The last refusal is noted at 1.6 s; the window ends at 5.6 s.
  for (auto wait : {800ms, 800ms, 800ms, 800ms, 800ms, 800ms, 800ms, 1600ms, 3200ms}) {
    ASSERT_TRUE(api_.AwaitListCalls(lists));
    ASSERT_TRUE(clock_.AwaitSleeperDeadlines({clock_.Now() + wait}, testing::kHandOffTimeout))
        << "no " << wait.count() << " ms wait after list " << lists;
    clock_.Advance(wait);
    ++lists;
  }
  ASSERT_TRUE(api_.AwaitWatchCalls(1));
  EXPECT_EQ(api_.list_calls().size(), 10u);
  EXPECT_TRUE(reflector_->HasSynced());
}

TEST_F(ReflectorTest, NotSyncedUntilFirstListSucceeds) {
  api_.ScriptList(base::Error::Http(403, "forbidden"));
  Start(Paged());
  clock_.AwaitSleepers(1);
  EXPECT_FALSE(reflector_->HasSynced());
}

TEST_F(ReflectorTest, ResyncReportsEveryCachedObjectAsUpdate) {
  api_.ScriptList(Page({MakeVa("a", "1"), MakeVa("b", "2")}, "5"));
  ReflectorOptions options = Paged();
  options.resync_period = 10min;
  Start(options);
  ASSERT_TRUE(api_.AwaitWatchCalls(1));
  clock_.AwaitSleepers(1);  // the resync loop
  clock_.Advance(10min);
  ASSERT_TRUE(handler_.AwaitCount(4));
  auto events = handler_.events();
  std::sort(events.begin() + 2, events.end());
  EXPECT_EQ(events[2], "update a 1->1");
  EXPECT_EQ(events[3], "update b 2->2");
}

TEST_F(ReflectorTest, WatchTimeoutIsSpreadBetweenMinAndTwiceMin) {
  api_.ScriptList(Page({}, "5"));
  for (int i = 0; i < 20; ++i) api_.ScriptWatch({{}, {}});
  ReflectorOptions options = Paged();
  options.min_watch_timeout_seconds = 300;
  Start(options);
  ASSERT_TRUE(api_.AwaitWatchCalls(21));
  for (const auto& w : api_.watch_calls()) {
    EXPECT_GE(w.timeout_seconds, 300);
    EXPECT_LT(w.timeout_seconds, 600);
  }
}

TEST_F(ReflectorTest, WatchListReplacesStoreAtInitialEventsEndThenWatchGoesOn) {
  api_.ScriptWatch({{MakeEvent(WatchEventType::kAdded, MakeVa("a", "1")),
                     MakeEvent(WatchEventType::kAdded, MakeVa("b", "2")),
                     MakeEvent(WatchEventType::kModified, MakeVa("a", "3")),
                     MakeEvent(WatchEventType::kDeleted, MakeVa("b", "4")),
                     MakeEvent(WatchEventType::kAdded, MakeVa("c", "5")),
                     MakeEvent(WatchEventType::kBookmark, MakeVa("", "6")), InitialEventsEnd("7"),
                     MakeEvent(WatchEventType::kAdded, MakeVa("d", "8")),
                     MakeEvent(WatchEventType::kBookmark, MakeVa("", "9"))},
                    {}});
  Start({});
  ASSERT_TRUE(api_.AwaitWatchCalls(2));
  EXPECT_TRUE(reflector_->HasSynced());
  EXPECT_EQ(handler_.events(), (std::vector<std::string>{"add a", "add c", "add d"}));
  ASSERT_NE(store_.Get("", "a"), nullptr);
  EXPECT_EQ(store_.Get("", "a")->metadata.resource_version, "3");
  EXPECT_EQ(store_.Get("", "b"), nullptr);
  EXPECT_TRUE(api_.list_calls().empty());
  auto watches = api_.watch_calls();
  EXPECT_TRUE(watches[0].send_initial_events);
  EXPECT_EQ(watches[0].resource_version, "") << "a consistent read";
  EXPECT_TRUE(watches[0].allow_bookmarks);
  EXPECT_FALSE(watches[1].send_initial_events);
  EXPECT_EQ(watches[1].resource_version, "9");
}

TEST_F(ReflectorTest, WatchListBrokenBeforeInitialEventsEndIsNotSyncedAndRetriesAfterBackoff) {
  api_.ScriptWatch({{MakeEvent(WatchEventType::kAdded, MakeVa("a", "1"))},
                    base::Error::Transport("connection reset")});
  api_.ScriptWatch(
      {{MakeEvent(WatchEventType::kAdded, MakeVa("a", "1")), InitialEventsEnd("5")}, {}});
  Start({});
  clock_.AwaitSleepers(1);
  EXPECT_FALSE(reflector_->HasSynced());
  EXPECT_EQ(store_.Size(), 0u);
  EXPECT_TRUE(handler_.events().empty());
  clock_.Advance(800ms);
  ASSERT_TRUE(api_.AwaitWatchCalls(3));
  EXPECT_TRUE(reflector_->HasSynced());
  EXPECT_EQ(handler_.events(), (std::vector<std::string>{"add a"}));
  EXPECT_TRUE(api_.watch_calls()[1].send_initial_events);
  EXPECT_EQ(api_.watch_calls()[2].resource_version, "5");
  EXPECT_TRUE(api_.list_calls().empty());
}

TEST_F(ReflectorTest, GoneAfterWatchListRelistsByWatchListAndReportsOnlyTheDifferences) {
  api_.ScriptWatch(
      {{MakeEvent(WatchEventType::kAdded, MakeVa("keep", "1")),
        MakeEvent(WatchEventType::kAdded, MakeVa("change", "2")),
        MakeEvent(WatchEventType::kAdded, MakeVa("vanish", "3")), InitialEventsEnd("5"), Gone()},
       {}});
  api_.ScriptWatch(
      {{MakeEvent(WatchEventType::kAdded, MakeVa("keep", "1")),
        MakeEvent(WatchEventType::kAdded, MakeVa("change", "20")),
        MakeEvent(WatchEventType::kAdded, MakeVa("new", "21")), InitialEventsEnd("30")},
       {}});
  Start({});
  ASSERT_TRUE(api_.AwaitWatchCalls(3));
  // Initial events are reported in key order, as a LIST would return them.
  EXPECT_EQ(handler_.events(),
            (std::vector<std::string>{"add change", "add keep", "add vanish", "update change 2->20",
                                      "add new", "delete vanish", "relisted"}));
  auto watches = api_.watch_calls();
  EXPECT_TRUE(watches[1].send_initial_events);
  EXPECT_EQ(watches[1].resource_version, "");
  EXPECT_EQ(watches[2].resource_version, "30");
  EXPECT_TRUE(api_.list_calls().empty());
}

TEST_F(ReflectorTest, WatchListEndingBeforeInitialEventsEndListsOnceThenTriesAgain) {
  // A server that ignores sendInitialEvents: a plain watch that times out.
  api_.ScriptWatch({{MakeEvent(WatchEventType::kAdded, MakeVa("a", "1"))}, {}});
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  api_.ScriptWatch({{Gone()}, {}});
  api_.ScriptWatch({{MakeEvent(WatchEventType::kAdded, MakeVa("a", "1")),
                     MakeEvent(WatchEventType::kAdded, MakeVa("b", "2")), InitialEventsEnd("9")},
                    {}});
  Start({});
  ASSERT_TRUE(api_.AwaitWatchCalls(4));
  EXPECT_EQ(handler_.events(), (std::vector<std::string>{"add a", "add b", "relisted"}));
  EXPECT_EQ(api_.list_calls().size(), 1u);
  auto watches = api_.watch_calls();
  EXPECT_EQ(watches[1].resource_version, "5");
  EXPECT_FALSE(watches[1].send_initial_events);
  EXPECT_TRUE(watches[2].send_initial_events);
  EXPECT_EQ(watches[3].resource_version, "9");
}

class RejectedWatchListTest : public ReflectorTest, public ::testing::WithParamInterface<int> {};

TEST_P(RejectedWatchListTest, FallsBackToPagedListsForGoodWithoutBackoff) {
  api_.ScriptWatch({{}, base::Error::Http(GetParam(), "sendInitialEvents is forbidden")});
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  api_.ScriptWatch({{Gone()}, {}});
  api_.ScriptList(Page({MakeVa("a", "1"), MakeVa("b", "2")}, "8"));
  Start({});  // the fake clock never advances: a backoff would hang here
  ASSERT_TRUE(api_.AwaitWatchCalls(3));
  EXPECT_TRUE(reflector_->HasSynced());
  EXPECT_EQ(handler_.events(), (std::vector<std::string>{"add a", "add b", "relisted"}));
  EXPECT_EQ(api_.list_calls().size(), 2u);
  auto watches = api_.watch_calls();
  EXPECT_FALSE(watches[1].send_initial_events);
  EXPECT_EQ(watches[1].resource_version, "5");
  EXPECT_FALSE(watches[2].send_initial_events) << "the relist after 410 is a paged LIST too";
  EXPECT_EQ(watches[2].resource_version, "8");
}

INSTANTIATE_TEST_SUITE_P(BadRequestAndInvalid, RejectedWatchListTest, ::testing::Values(400, 422));

#if CSI_TEST_HEAP_TRIM
std::vector<VA> ManyVas(size_t count) {
  std::vector<VA> vas;
  for (size_t i = 0; i < count; ++i) vas.push_back(MakeVa("va-" + std::to_string(i), "1"));
  return vas;
}

TEST_F(ReflectorTest, LargeListHandsFreeHeapMemoryBack) {
  testsupport::HeapHoles holes(48 << 20);
  api_.ScriptList(Page(ManyVas(Reflector<VA>::kReleaseMemoryAfterListOf), "10"));
  long before = testsupport::RssAnonKiB();
  Start(Paged());
  ASSERT_TRUE(api_.AwaitWatchCalls(1));
  long after = testsupport::RssAnonKiB();
  EXPECT_GT(before - after, holes.freed_kib() / 2)
      << "RssAnon " << before << " -> " << after << " KiB";
}

TEST_F(ReflectorTest, SmallListLeavesTheHeapAlone) {
  testsupport::HeapHoles holes(48 << 20);
  api_.ScriptList(Page(ManyVas(Reflector<VA>::kReleaseMemoryAfterListOf - 1), "10"));
  long before = testsupport::RssAnonKiB();
  Start(Paged());
  ASSERT_TRUE(api_.AwaitWatchCalls(1));
  long after = testsupport::RssAnonKiB();
  EXPECT_LT(before - after, holes.freed_kib() / 4)
      << "RssAnon " << before << " -> " << after << " KiB";
}
#endif  // CSI_TEST_HEAP_TRIM

}  // namespace
}  // namespace kube
