#include "kube/runtime/reflector.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <deque>
#include <thread>

#include "kube/api/storage/v1/volume_attachment.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using VA = VolumeAttachment;

VA MakeVa(std::string name, std::string rv) {
  VA va;
  va.metadata.name = std::move(name);
  va.metadata.resource_version = std::move(rv);
  return va;
}

ObjectList<VA> Page(std::vector<VA> items, std::string rv, std::string continue_token = "") {
  ObjectList<VA> list;
  list.items = std::move(items);
  list.metadata.resource_version = std::move(rv);
  list.metadata.continue_token = std::move(continue_token);
  return list;
}

WatchEvent<VA> Event(WatchEventType type, VA va) {
  WatchEvent<VA> e;
  e.type = type;
  e.object = std::move(va);
  return e;
}

WatchEvent<VA> InitialEventsEnd(std::string rv) {
  auto e = Event(WatchEventType::kBookmark, MakeVa("", std::move(rv)));
  e.object.metadata.annotations[kInitialEventsEndAnnotation] = "true";
  return e;
}

WatchEvent<VA> Gone() {
  WatchEvent<VA> e;
  e.type = WatchEventType::kError;
  e.error = base::Error("too old resource version", 410);
  return e;
}

// The paged LIST path: what a server without streaming lists gets.
ReflectorOptions Paged() {
  ReflectorOptions options;
  options.watch_list = false;
  return options;
}

// A scripted API: each List/Watch call pops the next scripted answer; a Watch
// with nothing scripted blocks until stopped, like an idle watch.
class FakeListerWatcher final : public ListerWatcher<VA> {
 public:
  struct WatchScript {
    std::vector<WatchEvent<VA>> events;
    base::Status end;  // returned after the events
  };

  void ScriptList(base::Result<ObjectList<VA>> answer) {
    std::lock_guard lock(mu_);
    lists_.push_back(std::move(answer));
  }
  void ScriptWatch(WatchScript script) {
    std::lock_guard lock(mu_);
    watches_.push_back(std::move(script));
    cv_.notify_all();
  }

  base::Result<ObjectList<VA>> List(const ListOptions& options) override {
    std::lock_guard lock(mu_);
    list_calls_.push_back(options);
    if (lists_.empty()) return base::Error("no scripted list", 500);
    auto answer = std::move(lists_.front());
    lists_.pop_front();
    return answer;
  }

  base::Status Watch(const WatchOptions& options,
                     const std::function<bool(WatchEvent<VA>&&)>& on_event,
                     std::stop_token stop) override {
    WatchScript script;
    {
      std::unique_lock lock(mu_);
      watch_calls_.push_back(options);
      cv_.notify_all();
      cv_.wait(lock, stop, [&] { return !watches_.empty(); });
      if (stop.stop_requested()) return {};
      script = std::move(watches_.front());
      watches_.pop_front();
    }
    for (auto& e : script.events) {
      if (!on_event(std::move(e))) break;
    }
    return script.end;
  }

  std::vector<ListOptions> list_calls() {
    std::lock_guard lock(mu_);
    return list_calls_;
  }
  std::vector<WatchOptions> watch_calls() {
    std::lock_guard lock(mu_);
    return watch_calls_;
  }
  // Waits (real time, bounded) until Watch has been called n times.
  bool AwaitWatchCalls(size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 5s, [&] { return watch_calls_.size() >= n; });
  }

 private:
  std::mutex mu_;
  std::condition_variable_any cv_;
  std::deque<base::Result<ObjectList<VA>>> lists_;
  std::deque<WatchScript> watches_;
  std::vector<ListOptions> list_calls_;
  std::vector<WatchOptions> watch_calls_;
};

class RecordingHandler final : public EventHandler<VA> {
 public:
  void OnAdd(const Ptr& o) override { Record("add " + o->metadata.name); }
  void OnUpdate(const Ptr& a, const Ptr& b) override {
    Record("update " + b->metadata.name + " " + a->metadata.resource_version + "->" +
           b->metadata.resource_version);
  }
  void OnDelete(const Ptr& o) override { Record("delete " + o->metadata.name); }

  std::vector<std::string> events() {
    std::lock_guard lock(mu_);
    return events_;
  }
  bool AwaitCount(size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 5s, [&] { return events_.size() >= n; });
  }

 private:
  void Record(std::string e) {
    std::lock_guard lock(mu_);
    events_.push_back(std::move(e));
    cv_.notify_all();
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> events_;
};

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
  FakeListerWatcher api_;
  Store<VA> store_;
  RecordingHandler handler_;
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
  api_.ScriptWatch({{Event(WatchEventType::kAdded, MakeVa("b", "6")),
                     Event(WatchEventType::kModified, MakeVa("a", "7")),
                     Event(WatchEventType::kDeleted, MakeVa("b", "8")),
                     Event(WatchEventType::kBookmark, MakeVa("", "9"))},
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
  api_.ScriptWatch({{Event(WatchEventType::kModified, MakeVa("a", "1")),
                     Event(WatchEventType::kAdded, MakeVa("a", "1"))},
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
                                      "add new", "delete vanish"}));
  EXPECT_EQ(api_.watch_calls()[1].resource_version, "30");
}

TEST_F(ReflectorTest, GoneWhenOpeningWatchRelists) {
  api_.ScriptList(Page({}, "5"));
  api_.ScriptWatch({{}, base::Error("resourceVersion too old", 410)});
  api_.ScriptList(Page({MakeVa("x", "40")}, "41"));
  Start(Paged());
  ASSERT_TRUE(api_.AwaitWatchCalls(2));
  EXPECT_EQ(api_.list_calls().size(), 2u);
  EXPECT_EQ(handler_.events(), (std::vector<std::string>{"add x"}));
}

TEST_F(ReflectorTest, ExpiredContinueTokenRestartsListWithoutPaging) {
  api_.ScriptList(Page({MakeVa("a", "1")}, "", "tok"));
  api_.ScriptList(base::Error("continue token expired", 410));
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
  api_.ScriptList(base::Error("connection refused", 0));
  api_.ScriptList(base::Error("connection refused", 0));
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  Start(Paged());
  clock_.AwaitSleepers(1);
  EXPECT_EQ(api_.list_calls().size(), 1u);
  clock_.Advance(799ms);
  EXPECT_EQ(api_.list_calls().size(), 1u) << "retried before the 800ms backoff passed";
  clock_.Advance(1ms);
  // Second failure: now the backoff is 1.6 s.
  while (api_.list_calls().size() < 2) std::this_thread::yield();
  clock_.AwaitSleepers(1);
  clock_.Advance(1599ms);
  EXPECT_EQ(api_.list_calls().size(), 2u);
  clock_.Advance(1ms);
  ASSERT_TRUE(api_.AwaitWatchCalls(1));
  EXPECT_FALSE(handler_.events().empty());
  EXPECT_TRUE(reflector_->HasSynced());
}

TEST_F(ReflectorTest, NotSyncedUntilFirstListSucceeds) {
  api_.ScriptList(base::Error("forbidden", 403));
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
  api_.ScriptWatch({{Event(WatchEventType::kAdded, MakeVa("a", "1")),
                     Event(WatchEventType::kAdded, MakeVa("b", "2")),
                     Event(WatchEventType::kModified, MakeVa("a", "3")),
                     Event(WatchEventType::kDeleted, MakeVa("b", "4")),
                     Event(WatchEventType::kAdded, MakeVa("c", "5")),
                     Event(WatchEventType::kBookmark, MakeVa("", "6")), InitialEventsEnd("7"),
                     Event(WatchEventType::kAdded, MakeVa("d", "8")),
                     Event(WatchEventType::kBookmark, MakeVa("", "9"))},
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
  api_.ScriptWatch({{Event(WatchEventType::kAdded, MakeVa("a", "1"))},
                    base::Error("connection reset", kTransportError)});
  api_.ScriptWatch({{Event(WatchEventType::kAdded, MakeVa("a", "1")), InitialEventsEnd("5")}, {}});
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
      {{Event(WatchEventType::kAdded, MakeVa("keep", "1")),
        Event(WatchEventType::kAdded, MakeVa("change", "2")),
        Event(WatchEventType::kAdded, MakeVa("vanish", "3")), InitialEventsEnd("5"), Gone()},
       {}});
  api_.ScriptWatch({{Event(WatchEventType::kAdded, MakeVa("keep", "1")),
                     Event(WatchEventType::kAdded, MakeVa("change", "20")),
                     Event(WatchEventType::kAdded, MakeVa("new", "21")), InitialEventsEnd("30")},
                    {}});
  Start({});
  ASSERT_TRUE(api_.AwaitWatchCalls(3));
  // Initial events are reported in key order, as a LIST would return them.
  EXPECT_EQ(handler_.events(),
            (std::vector<std::string>{"add change", "add keep", "add vanish", "update change 2->20",
                                      "add new", "delete vanish"}));
  auto watches = api_.watch_calls();
  EXPECT_TRUE(watches[1].send_initial_events);
  EXPECT_EQ(watches[1].resource_version, "");
  EXPECT_EQ(watches[2].resource_version, "30");
  EXPECT_TRUE(api_.list_calls().empty());
}

TEST_F(ReflectorTest, WatchListEndingBeforeInitialEventsEndListsOnceThenTriesAgain) {
  // A server that ignores sendInitialEvents: a plain watch that times out.
  api_.ScriptWatch({{Event(WatchEventType::kAdded, MakeVa("a", "1"))}, {}});
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  api_.ScriptWatch({{Gone()}, {}});
  api_.ScriptWatch({{Event(WatchEventType::kAdded, MakeVa("a", "1")),
                     Event(WatchEventType::kAdded, MakeVa("b", "2")), InitialEventsEnd("9")},
                    {}});
  Start({});
  ASSERT_TRUE(api_.AwaitWatchCalls(4));
  EXPECT_EQ(handler_.events(), (std::vector<std::string>{"add a", "add b"}));
  EXPECT_EQ(api_.list_calls().size(), 1u);
  auto watches = api_.watch_calls();
  EXPECT_EQ(watches[1].resource_version, "5");
  EXPECT_FALSE(watches[1].send_initial_events);
  EXPECT_TRUE(watches[2].send_initial_events);
  EXPECT_EQ(watches[3].resource_version, "9");
}

class RejectedWatchListTest : public ReflectorTest, public ::testing::WithParamInterface<int> {};

TEST_P(RejectedWatchListTest, FallsBackToPagedListsForGoodWithoutBackoff) {
  api_.ScriptWatch({{}, base::Error("sendInitialEvents is forbidden", GetParam())});
  api_.ScriptList(Page({MakeVa("a", "1")}, "5"));
  api_.ScriptWatch({{Gone()}, {}});
  api_.ScriptList(Page({MakeVa("a", "1"), MakeVa("b", "2")}, "8"));
  Start({});  // the fake clock never advances: a backoff would hang here
  ASSERT_TRUE(api_.AwaitWatchCalls(3));
  EXPECT_TRUE(reflector_->HasSynced());
  EXPECT_EQ(handler_.events(), (std::vector<std::string>{"add a", "add b"}));
  EXPECT_EQ(api_.list_calls().size(), 2u);
  auto watches = api_.watch_calls();
  EXPECT_FALSE(watches[1].send_initial_events);
  EXPECT_EQ(watches[1].resource_version, "5");
  EXPECT_FALSE(watches[2].send_initial_events) << "the relist after 410 is a paged LIST too";
  EXPECT_EQ(watches[2].resource_version, "8");
}

INSTANTIATE_TEST_SUITE_P(BadRequestAndInvalid, RejectedWatchListTest, ::testing::Values(400, 422));

}  // namespace
}  // namespace kube
