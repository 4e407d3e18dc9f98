// Reflector against the real kube-apiserver: restarts, outages and a
// compacted resourceVersion (410 Gone) must neither lose nor repeat events,
// with streaming lists (WatchList) and with paged LISTs.
#include "kube/runtime/reflector.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <thread>

#include "tests/integration/kube/cluster_fixture.h"
#include "tests/support/test_objects.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using testobjects::Va;

// Counts the API requests behind a reflector; `lists` are the complete lists
// (paged LIST pages or streaming-list watches), to tell a relist from a
// resumed watch.
class CountingListerWatcher final : public ListerWatcher<VolumeAttachment> {
 public:
  explicit CountingListerWatcher(Client& client) : inner_(client, "") {}
  base::Result<ObjectList<VolumeAttachment>> List(const ListOptions& o) override {
    ++requests;
    ++lists;
    return inner_.List(o);
  }
  base::Status Watch(const WatchOptions& o,
                     const std::function<bool(WatchEvent<VolumeAttachment>&&)>& on_event,
                     std::stop_token stop) override {
    ++requests;
    if (o.send_initial_events) ++lists;
    return inner_.Watch(o, on_event, stop);
  }
  std::atomic<int> requests{0};
  std::atomic<int> lists{0};

 private:
  ClientListerWatcher<VolumeAttachment> inner_;
};

// Records events per object for one test's attacher name; can hold the
// reflector inside a handler call to let the world move on without it.
class Recorder final : public EventHandler<VolumeAttachment> {
 public:
  explicit Recorder(std::string attacher) : attacher_(std::move(attacher)) {}

  void OnAdd(const Ptr& o) override { Record("add", *o); }
  void OnUpdate(const Ptr&, const Ptr& o) override { Record("update", *o); }
  void OnDelete(const Ptr& o) override { Record("delete", *o); }

  // Returns the events seen for `name`, e.g. {"add", "update"}.
  std::vector<std::string> EventsFor(const std::string& name) {
    std::lock_guard lock(mu_);
    return events_[name];
  }
  bool AwaitEvent(const std::string& name, const std::string& type,
                  std::chrono::seconds timeout = 60s) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, timeout, [&] {
      for (const auto& e : events_[name]) {
        if (e == type) return true;
      }
      return false;
    });
  }
  void HoldOnAddOf(std::string name) {
    std::lock_guard lock(mu_);
    hold_name_ = std::move(name);
  }
  bool AwaitHeld() {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 60s, [&] { return holding_; });
  }
  void Release() {
    std::lock_guard lock(mu_);
    hold_name_.clear();
    cv_.notify_all();
  }

 private:
  void Record(const char* type, const VolumeAttachment& va) {
    if (va.spec.attacher != attacher_) return;
    std::unique_lock lock(mu_);
    events_[va.metadata.name].push_back(type);
    cv_.notify_all();
    if (va.metadata.name == hold_name_ && std::string(type) == "add") {
      holding_ = true;
      cv_.notify_all();
      cv_.wait(lock, [&] { return hold_name_.empty(); });
      holding_ = false;
    }
  }

  const std::string attacher_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::vector<std::string>> events_;
  std::string hold_name_;
  bool holding_ = false;
};

class ReflectorIntegrationTest : public ClusterTest {
 protected:
  void StartReflector(Recorder& recorder, bool watch_list = true) {
    source_ = std::make_unique<CountingListerWatcher>(*attacher_);
    ReflectorOptions options;
    options.backoff_initial = 200ms;
    options.backoff_max = 1s;
    options.page_size = 5;
    options.watch_list = watch_list;
    reflector_ = std::make_unique<Reflector<VolumeAttachment>>(*source_, store_, recorder, options);
    thread_ = std::jthread([this](std::stop_token stop) { reflector_->Run(stop); });
  }
  void TearDown() override {
    thread_.request_stop();
    if (thread_.joinable()) thread_.join();
  }
  // HasSynced turns true just after the list's events were handed out.
  bool AwaitSynced() {
    auto deadline = std::chrono::steady_clock::now() + 60s;
    while (!reflector_->HasSynced() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(10ms);
    }
    return reflector_->HasSynced();
  }
  void CompactedResourceVersionRelists(bool watch_list, const std::string& p);
  void Create(const std::string& name, const std::string& attacher) {
    auto r = admin_->Create(Va(name, attacher, "pv", "node"));
    ASSERT_TRUE(r.ok()) << r.error().message;
  }

  Store<VolumeAttachment> store_;
  std::unique_ptr<CountingListerWatcher> source_;
  std::unique_ptr<Reflector<VolumeAttachment>> reflector_;
  std::jthread thread_;
};

TEST_F(ReflectorIntegrationTest, InitialListThenWatchDeliversEachChangeOnce) {
  const std::string d = "basic.example.com";
  for (int i = 0; i < 7; ++i) Create("basic-" + std::to_string(i), d);
  Recorder recorder(d);
  StartReflector(recorder);
  ASSERT_TRUE(AwaitSynced());
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(recorder.AwaitEvent("basic-" + std::to_string(i), "add"));
  Create("basic-live", d);
  ASSERT_TRUE(recorder.AwaitEvent("basic-live", "add"));
  ASSERT_TRUE(admin_
                  ->Patch<VolumeAttachment>("", "basic-live", PatchType::kMerge,
                                            R"({"metadata":{"labels":{"x":"y"}}})")
                  .ok());
  ASSERT_TRUE(recorder.AwaitEvent("basic-live", "update"));
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "basic-live").ok());
  ASSERT_TRUE(recorder.AwaitEvent("basic-live", "delete"));
  EXPECT_EQ(recorder.EventsFor("basic-live"),
            (std::vector<std::string>{"add", "update", "delete"}));
  EXPECT_EQ(recorder.EventsFor("basic-3"), (std::vector<std::string>{"add"}));
}

TEST_F(ReflectorIntegrationTest, WatchListSyncsWithOneRequestThatGoesOnWatching) {
  const std::string d = "watchlist.example.com";
  for (int i = 0; i < 12; ++i) Create("wl-" + std::to_string(i), d);
  Recorder recorder(d);
  StartReflector(recorder);
  ASSERT_TRUE(AwaitSynced());
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(recorder.EventsFor("wl-" + std::to_string(i)), std::vector<std::string>{"add"});
  }
  EXPECT_NE(reflector_->LastResourceVersion(), "");
  Create("wl-live", d);
  ASSERT_TRUE(recorder.AwaitEvent("wl-live", "add"));
  EXPECT_EQ(source_->requests.load(), 1) << "one streaming watch, no LIST, no second watch";
  EXPECT_EQ(source_->lists.load(), 1);
}

TEST_F(ReflectorIntegrationTest, PagedListPathStillSyncs) {
  const std::string d = "paged.example.com";
  for (int i = 0; i < 12; ++i) Create("paged-" + std::to_string(i), d);
  Recorder recorder(d);
  StartReflector(recorder, /*watch_list=*/false);
  ASSERT_TRUE(AwaitSynced());
  for (int i = 0; i < 12; ++i) {
    ASSERT_TRUE(recorder.AwaitEvent("paged-" + std::to_string(i), "add"));
  }
  EXPECT_GE(source_->lists.load(), 3) << "pages of 5";
  Create("paged-live", d);
  ASSERT_TRUE(recorder.AwaitEvent("paged-live", "add"));
}

TEST_F(ReflectorIntegrationTest, WatchSurvivesApiServerRestartAndOutage) {
  const std::string d = "restart.example.com";
  Recorder recorder(d);
  StartReflector(recorder);
  Create("before-restart", d);
  ASSERT_TRUE(recorder.AwaitEvent("before-restart", "add"));

  ASSERT_TRUE(plane_->StopApiServer().ok());
  std::this_thread::sleep_for(3s);  // the reflector now fails and backs off
  auto restarted = plane_->StartApiServer();
  ASSERT_TRUE(restarted.ok()) << restarted.error().message;

  Create("after-restart", d);
  ASSERT_TRUE(recorder.AwaitEvent("after-restart", "add"));
  EXPECT_EQ(recorder.EventsFor("before-restart"), std::vector<std::string>{"add"})
      << "an object seen before the restart must not be reported again";
  EXPECT_EQ(recorder.EventsFor("after-restart"), std::vector<std::string>{"add"});
  EXPECT_NE(store_.Get("", "before-restart"), nullptr);
}

// Names are prefixed with `p` so both list kinds can run on one cluster.
void ReflectorIntegrationTest::CompactedResourceVersionRelists(bool watch_list,
                                                               const std::string& p) {
  const std::string d = p + "compact.example.com";
  Create(p + "stays", d);
  Create(p + "changes", d);
  Create(p + "vanishes", d);
  Recorder recorder(d);
  StartReflector(recorder, watch_list);
  ASSERT_TRUE(recorder.AwaitEvent(p + "vanishes", "add"));
  int lists_before = source_->lists.load();

  // Hold the reflector inside a handler call while the world moves on, then
  // compact etcd and restart the apiserver so its old resourceVersion is gone.
  recorder.HoldOnAddOf(p + "gate");
  Create(p + "gate", d);
  ASSERT_TRUE(recorder.AwaitHeld());
  ASSERT_TRUE(admin_
                  ->Patch<VolumeAttachment>("", p + "changes", PatchType::kMerge,
                                            R"({"metadata":{"labels":{"v":"2"}}})")
                  .ok());
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", p + "vanishes").ok());
  Create(p + "appears", d);
  ASSERT_TRUE(plane_->CompactEtcd().ok());
  ASSERT_TRUE(plane_->StopApiServer().ok());
  ASSERT_TRUE(plane_->StartApiServer().ok());
  recorder.Release();

  // Events still buffered in the old stream may arrive first; the re-watch
  // from the held resourceVersion must then meet 410 and relist.
  auto deadline = std::chrono::steady_clock::now() + 60s;
  while (source_->lists.load() == lists_before && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_GT(source_->lists.load(), lists_before) << "expected a relist after 410 Gone";
  ASSERT_TRUE(recorder.AwaitEvent(p + "appears", "add"));
  ASSERT_TRUE(recorder.AwaitEvent(p + "vanishes", "delete"));
  ASSERT_TRUE(recorder.AwaitEvent(p + "changes", "update"));
  ASSERT_TRUE(reflector_->HasSynced());
  EXPECT_EQ(recorder.EventsFor(p + "stays"), std::vector<std::string>{"add"});
  EXPECT_EQ(recorder.EventsFor(p + "changes"), (std::vector<std::string>{"add", "update"}));
  EXPECT_EQ(recorder.EventsFor(p + "vanishes"), (std::vector<std::string>{"add", "delete"}));
  EXPECT_EQ(recorder.EventsFor(p + "appears"), std::vector<std::string>{"add"});
  EXPECT_EQ(recorder.EventsFor(p + "gate"), std::vector<std::string>{"add"});
  EXPECT_EQ(store_.Get("", p + "vanishes"), nullptr);
}

TEST_F(ReflectorIntegrationTest, CompactedResourceVersionRelistsByWatchList) {
  CompactedResourceVersionRelists(/*watch_list=*/true, "wl-");
}

TEST_F(ReflectorIntegrationTest, CompactedResourceVersionRelistsByPagedList) {
  CompactedResourceVersionRelists(/*watch_list=*/false, "paged-");
}

// An API server with streaming lists turned off rejects the WatchList request;
// the reflector must fall back to paged LISTs.
class ReflectorWatchListOffTest : public ReflectorIntegrationTest {
 public:
  static void SetUpTestSuite() {
    testsupport::ControlPlaneOptions options;
    options.extra_apiserver_args = {"--feature-gates=WatchList=false"};
    StartCluster(std::move(options));
  }
};

TEST_F(ReflectorWatchListOffTest, FallsBackToPagedLists) {
  const std::string d = "off.example.com";
  for (int i = 0; i < 7; ++i) Create("off-" + std::to_string(i), d);
  Recorder recorder(d);
  StartReflector(recorder);
  ASSERT_TRUE(AwaitSynced());
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(recorder.AwaitEvent("off-" + std::to_string(i), "add"));
  EXPECT_EQ(source_->lists.load(), 3) << "the rejected streaming list, then two pages of 5";
  Create("off-live", d);
  ASSERT_TRUE(recorder.AwaitEvent("off-live", "add"));
  EXPECT_EQ(recorder.EventsFor("off-3"), std::vector<std::string>{"add"});
}

}  // namespace
}  // namespace kube
