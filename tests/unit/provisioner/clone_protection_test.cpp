// docs/provisioner.md §3.7 "Clone protection": CloneProtectionController
// over a fake claim source with one worker, the recording API and a
// FakeClock (provisioner_fakes.h). A source claim being deleted loses
// provisioner.storage.kubernetes.io/cloning-protection unless a Pending
// claim of its namespace clones it; the Pending clones are indexed from the
// informer's events (§9.6), so a clone that binds frees its source at once.
#include "provisioner/clone_protection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "provisioner_fakes.h"

namespace provisioner {
namespace {

using namespace std::chrono_literals;
using kube::WatchEventType;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Pvc = kube::PersistentVolumeClaim;
using fakes::kCloneFinalizer;

const std::string kRemoved = "apps/src: -" + std::string(kCloneFinalizer);

// apps/src with the finalizer, being deleted.
Pvc DeletingSource() {
  Pvc source = fakes::SourceClaim();
  source.metadata.finalizers.emplace_back(kCloneFinalizer);
  source.metadata.deletion_timestamp = "2026-01-01T00:00:00Z";
  source.metadata.resource_version = "2";
  return source;
}

// A claim of apps cloning apps/src, in `phase`.
Pvc Clone(const std::string& name, const std::string& phase) {
  Pvc clone = fakes::PendingClaim(name, "uid-" + name);
  clone.spec.data_source = kube::TypedLocalObjectReference{
      .api_group = {}, .kind = "PersistentVolumeClaim", .name = "src"};
  clone.status.phase = phase;
  return clone;
}

class CloneProtectionTest : public fakes::World {
 protected:
  void Start(std::vector<Pvc> claims) {
    claims_.SetItems(std::move(claims));
    kube::InformerSet& informers = MakeInformers();
    informers.UseSource(claims_);
    component::LoopOptions loop;
    loop.worker_threads = 1;  // retries from 1 s
    controller_.emplace(loop, informers, api_, clock_);
    RunController(*controller_);
  }

  testsupport::FakeListerWatcher<Pvc> claims_;
  std::optional<CloneProtectionController> controller_;
};

TEST_F(CloneProtectionTest, DeletedSourceWithoutAPendingCloneLosesTheFinalizer) {
  Start({DeletingSource(), Clone("bound-clone", "Bound")});
  ASSERT_TRUE(log_.Await("FINALIZER", kRemoved));
  EXPECT_THAT(log_.All(), ElementsAre("FINALIZER " + kRemoved));
}

TEST_F(CloneProtectionTest, SourceNotBeingDeletedOrWithoutTheFinalizerIsLeftAlone) {
  Pvc live = fakes::SourceClaim();
  live.metadata.finalizers.emplace_back(kCloneFinalizer);
  Pvc other = DeletingSource();
  other.metadata.name = "other";
  other.metadata.finalizers.clear();
  Start({live, other});
  // A source that does qualify, behind them in the one worker's queue.
  Pvc last = DeletingSource();
  last.metadata.name = "last";
  Send(claims_, WatchEventType::kAdded, last);
  ASSERT_TRUE(log_.Await("FINALIZER", "apps/last: -" + std::string(kCloneFinalizer)));
  EXPECT_EQ(log_.All().size(), 1u);
}

// Upstream: `PVC '<clone>' is in 'Pending' state, cloning in progress` and
// a retry with backoff; once the clone is bound the source is synced again
// at once (the index maps the clone's change to its source).
TEST_F(CloneProtectionTest, PendingCloneKeepsTheFinalizerUntilItBinds) {
  Start({DeletingSource(), Clone("clone", "Pending")});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  EXPECT_THAT(log_.All(), IsEmpty());

  Pvc bound = Clone("clone", "Bound");
  bound.metadata.resource_version = "2";
  Send(claims_, WatchEventType::kModified, bound);
  ASSERT_TRUE(log_.Await("FINALIZER", kRemoved));
  EXPECT_EQ(clock_.Now(), kStart);
}

TEST_F(CloneProtectionTest, ThePendingClonesMessageIsUpstreams) {
  Start({DeletingSource(), Clone("clone", "Pending")});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  auto result = controller_->Sync("apps/src", std::make_shared<const Pvc>(DeletingSource()));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message, "PVC 'clone' is in 'Pending' state, cloning in progress");
}

TEST_F(CloneProtectionTest, DeletedPendingCloneFreesItsSource) {
  Start({DeletingSource(), Clone("clone", "Pending")});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  Send(claims_, WatchEventType::kDeleted, Clone("clone", "Pending"));
  ASSERT_TRUE(log_.Await("FINALIZER", kRemoved));
}

// Only clones of the same namespace and of this source count.
TEST_F(CloneProtectionTest, PendingClonesOfOtherSourcesOrNamespacesDoNotCount) {
  Pvc other_source = Clone("clone-of-other", "Pending");
  other_source.spec.data_source->name = "other";
  Pvc other_namespace = Clone("clone-elsewhere", "Pending");
  other_namespace.metadata.namespace_ = "elsewhere";
  Start({DeletingSource(), other_source, other_namespace});
  ASSERT_TRUE(log_.Await("FINALIZER", kRemoved));
}

// A removal the API server refuses is retried with backoff.
TEST_F(CloneProtectionTest, RefusedRemovalIsRetried) {
  api_.Fail("FINALIZER", "apps/src", {fakes::ServerError()});
  Start({DeletingSource()});
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("FINALIZER", kRemoved, 2));
}

}  // namespace
}  // namespace provisioner
