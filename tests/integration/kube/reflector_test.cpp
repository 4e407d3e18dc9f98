// Reflector against the real kube-apiserver: restarts, outages and a
// compacted resourceVersion (410 Gone) must neither lose nor repeat events.
#include "kube/reflector.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <thread>

#include "tests/integration/kube/cluster_fixture.h"
#include "tests/integration/kube/objects.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using testobjects::Va;

// Counts List calls so a test can tell a relist from a resumed watch.
class CountingListerWatcher final : public ListerWatcher<VolumeAttachment> {
 public:
  explicit CountingListerWatcher(Client& client) : inner_(client, "") {}
  base::Result<ObjectList<VolumeAttachment>> List(const ListOptions& o) override {
    ++lists;
    return inner_.List(o);
  }
  base::Status Watch(const WatchOptions& o,
                     const std::function<bool(WatchEvent<VolumeAttachment>&&)>& on_event,
                     std::stop_token stop) override {
    return inner_.Watch(o, on_event, stop);
  }
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
  void StartReflector(Recorder& recorder) {
    source_ = std::make_unique<CountingListerWatcher>(*attacher_);
    ReflectorOptions options;
    options.backoff_initial = 200ms;
    options.backoff_max = 1s;
    options.page_size = 5;
    reflector_ = std::make_unique<Reflector<VolumeAttachment>>(*source_, store_, recorder, options);
    thread_ = std::jthread([this](std::stop_token stop) { reflector_->Run(stop); });
  }
  void TearDown() override {
    thread_.request_stop();
    if (thread_.joinable()) thread_.join();
  }
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
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(recorder.AwaitEvent("basic-" + std::to_string(i), "add"));
  EXPECT_TRUE(reflector_->HasSynced());
  Create("basic-live", d);
  ASSERT_TRUE(recorder.AwaitEvent("basic-live", "add"));
  ASSERT_TRUE(admin_->Patch<VolumeAttachment>("", "basic-live", PatchType::kMerge,
                                              R"({"metadata":{"labels":{"x":"y"}}})")
                  .ok());
  ASSERT_TRUE(recorder.AwaitEvent("basic-live", "update"));
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "basic-live").ok());
  ASSERT_TRUE(recorder.AwaitEvent("basic-live", "delete"));
  EXPECT_EQ(recorder.EventsFor("basic-live"),
            (std::vector<std::string>{"add", "update", "delete"}));
  EXPECT_EQ(recorder.EventsFor("basic-3"), (std::vector<std::string>{"add"}));
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

TEST_F(ReflectorIntegrationTest, CompactedResourceVersionRelistsWithoutMissingOrRepeating) {
  const std::string d = "compact.example.com";
  Create("stays", d);
  Create("changes", d);
  Create("vanishes", d);
  Recorder recorder(d);
  StartReflector(recorder);
  ASSERT_TRUE(recorder.AwaitEvent("vanishes", "add"));
  int lists_before = source_->lists.load();

  // Hold the reflector inside a handler call while the world moves on, then
  // compact etcd and restart the apiserver so its old resourceVersion is gone.
  recorder.HoldOnAddOf("gate");
  Create("gate", d);
  ASSERT_TRUE(recorder.AwaitHeld());
  ASSERT_TRUE(admin_->Patch<VolumeAttachment>("", "changes", PatchType::kMerge,
                                              R"({"metadata":{"labels":{"v":"2"}}})")
                  .ok());
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "vanishes").ok());
  Create("appears", d);
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
  ASSERT_TRUE(recorder.AwaitEvent("appears", "add"));
  ASSERT_TRUE(recorder.AwaitEvent("vanishes", "delete"));
  ASSERT_TRUE(recorder.AwaitEvent("changes", "update"));
  ASSERT_TRUE(reflector_->HasSynced());
  EXPECT_EQ(recorder.EventsFor("stays"), std::vector<std::string>{"add"});
  EXPECT_EQ(recorder.EventsFor("changes"), (std::vector<std::string>{"add", "update"}));
  EXPECT_EQ(recorder.EventsFor("vanishes"), (std::vector<std::string>{"add", "delete"}));
  EXPECT_EQ(recorder.EventsFor("appears"), std::vector<std::string>{"add"});
  EXPECT_EQ(recorder.EventsFor("gate"), std::vector<std::string>{"add"});
  EXPECT_EQ(store_.Get("", "vanishes"), nullptr);
}

}  // namespace
}  // namespace kube
