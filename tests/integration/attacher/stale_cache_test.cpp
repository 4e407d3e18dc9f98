// #17: the attacher works from informer caches that can lag behind the API
// server, and other clients write the same objects. Neither may leave an
// error on an attached volume or cost an attach a backoff: (a) a leftover
// attachError on an attached VA is cleared without a driver call, (b) finalizer
// patches sent from a PV cache that an API server restart left stale add ours
// once and keep another's, (c) another client's annotation writes during an
// attach storm make no patch of ours fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "attacher/names.h"
#include "kube/api/json_patch.h"
#include "tests/integration/attacher/attacher_fixture.h"

namespace attacher_it {
namespace {

using namespace std::chrono_literals;

constexpr const char* kStaleDriver = "stale.csi.example.com";
constexpr const char* kStaleNodeId = "stale-node-id";
// attacher/csi_handler.cpp logs this at -v=4 for each PV finalizer patch.
constexpr std::string_view kPvPatchedLine = "PV finalizer added";
// kube/client/client.cpp logs each answer at -v=6; a 422 to a VA request is
// a patch of ours the API server refused.
constexpr std::string_view kRefusedStatus = "status=422";
constexpr std::string_view kVaUrl = "/volumeattachments/";
// kube/runtime/reconcile_loop.cpp logs this for each sync that goes to backoff.
constexpr std::string_view kBackoffLine = "Sync failed, retrying with backoff";

// The lines of `log` containing both `a` and `b`.
int CountLinesWith(const std::string& log, std::string_view a, std::string_view b = {}) {
  std::istringstream lines(log);
  int n = 0;
  for (std::string line; std::getline(lines, line);) {
    n += line.find(a) != std::string::npos && line.find(b) != std::string::npos;
  }
  return n;
}

// How often `item` is among `finalizers`.
int Count(const std::vector<kube::InternedString>& finalizers, const std::string& item) {
  return static_cast<int>(std::count(finalizers.begin(), finalizers.end(), item));
}

class StaleCacheTest : public AttacherTest {
 protected:
  void Prepare(const std::string& suffix, std::vector<std::string> driver_args = {}) {
    StartFaultDriver(kStaleDriver, kStaleNodeId, std::move(driver_args));
    node_ = "node-" + suffix;
    CreateCsiNode(node_, kStaleDriver, kStaleNodeId);
  }

  // Starts the attacher and waits until its caches are filled, so that what
  // the test writes afterwards reaches it through its watches.
  void StartAttacherAndAwaitSync(std::vector<std::string> extra_args = {}) {
    StartAttacher(std::move(extra_args));
    auto deadline = std::chrono::steady_clock::now() + 60s;
    while (CountOccurrences(AttacherLog(), "Caches synced, starting workers") == 0) {
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << AttacherLog();
      ASSERT_TRUE(attacher_->IsRunning()) << AttacherLog();
      std::this_thread::sleep_for(100ms);
    }
  }

  void AddFinalizer(const std::string& pv, const std::string& finalizer) {
    auto patched = admin_->Patch<kube::PersistentVolume>(
        "", pv, kube::PatchType::kJson,
        R"([{"op":"add","path":"/metadata/finalizers","value":[")" + finalizer + R"("]}])");
    ASSERT_TRUE(patched.ok()) << patched.error().message;
  }

  std::string node_;
};

// Upstream keeps such an error for good: every later sync of the attached VA
// says "already attached". The error is planted while no attacher runs (an
// update of attachError alone is not worth a sync, #337), so the attacher that
// starts next finds it in its first sync, like one after a restart.
TEST_F(StaleCacheTest, AttachedVaWithPlantedAttachErrorIsClearedWithoutDriverCall) {
  Prepare("planted");
  CreatePv(CsiPv("pv-planted", kStaleDriver, "vol-planted"));
  StartAttacher();
  CreateVa("va-planted", kStaleDriver, "pv-planted", node_);
  auto attached = AwaitVa("va-planted", Attached);
  ASSERT_TRUE(attached && attached->status.attached);
  attacher_->Stop();
  // Usually 1; 2 when a second sync ran from a copy older than "attached".
  const int publishes = VolumeCounter("vol-planted", "publish_calls");
  ASSERT_GE(publishes, 1);

  auto planted = admin_->PatchStatus<kube::VolumeAttachment>(
      "", "va-planted", kube::PatchType::kMerge,
      R"({"status":{"attachError":{"message":"planted by the test","time":"2024-01-01T00:00:00Z"}}})");
  ASSERT_TRUE(planted.ok()) << planted.error().message;
  ASSERT_TRUE(planted->status.attached && planted->status.attach_error);

  StartAttacher();
  auto cleared = AwaitVa("va-planted", [](const kube::VolumeAttachment& va) {
    return !va.status.attach_error.has_value();
  });
  ASSERT_TRUE(cleared && !cleared->status.attach_error) << "the planted attachError stayed";
  EXPECT_TRUE(cleared->status.attached);
  EXPECT_EQ(cleared->status.attachment_metadata, attached->status.attachment_metadata);
  EXPECT_EQ(VolumeCounter("vol-planted", "publish_calls"), publishes)
      << "the driver was called again";
  EXPECT_GE(CountOccurrences(AttacherLog(), "Clearing the attachError"), 1);
}

// The attacher's ClusterRole loses list and watch of PVs (get and patch stay),
// then the API server restarts: the PV watch breaks and cannot be opened
// again, so the PV cache keeps the copies from before, deterministically.
// Behind its back the PVs gain finalizers: ours (added through a copy the
// cache never saw, the upstream failure of #17) or another controller's.
// The attacher patches every PV from its stale copy; the strategic merge
// patch must neither fail nor add ours twice nor drop the other one.
class PvRelistHeldBack {
 public:
  explicit PvRelistHeldBack(kube::Client& admin) : admin_(admin) {}
  ~PvRelistHeldBack() {
    base::Status restored = SetPvVerbs(R"(["get","list","watch","patch"])");
    EXPECT_TRUE(restored.ok()) << "the attacher's ClusterRole stays cut: "
                               << restored.error().message;
  }

  base::Status Start() { return SetPvVerbs(R"(["get","patch"])"); }

 private:
  // deploy/kubernetes/csi-attacher/rbac.yaml: rule 0 of external-attacher-runner is PVs.
  base::Status SetPvVerbs(const std::string& verbs) {
    auto patched = admin_.Request(
        "PATCH", "/apis/rbac.authorization.k8s.io/v1/clusterroles/external-attacher-runner",
        R"([{"op":"test","path":"/rules/0/resources","value":["persistentvolumes"]},)"
        R"({"op":"replace","path":"/rules/0/verbs","value":)" +
            verbs + "}]",
        kube::kJsonPatchContentType);
    if (!patched.ok()) return patched.error();
    return base::Status::Ok();
  }

  kube::Client& admin_;
};

TEST_F(StaleCacheTest, ApiServerRestartWithPvRelistHeldBackAttachesEveryVaWithoutError) {
  constexpr int kVolumes = 20;
  const std::string ours = attacher::FinalizerFor(kStaleDriver);
  const std::string other = "example.com/other-protection";
  Prepare("relist");
  auto name = [](std::string_view prefix, int i) {
    return std::string(prefix) + std::to_string(i);
  };
  for (int i = 0; i < kVolumes; ++i) {
    CreatePv(CsiPv(name("pv-relist-", i), kStaleDriver, name("vol-relist-", i)));
  }
  StartAttacherAndAwaitSync({"--worker-threads=4"});

  PvRelistHeldBack held_back(*admin_);
  ASSERT_TRUE(held_back.Start().ok());
  ASSERT_TRUE(plane_->StopApiServer().ok());
  ASSERT_TRUE(plane_->StartApiServer().ok());
  for (int i = 0; i < kVolumes; ++i) AddFinalizer(name("pv-relist-", i), i % 2 ? other : ours);
  for (int i = 0; i < kVolumes; ++i) {
    CreateVa(name("va-relist-", i), kStaleDriver, name("pv-relist-", i), node_);
  }

  for (int i = 0; i < kVolumes; ++i) {
    auto va = AwaitVa(name("va-relist-", i), Attached);
    ASSERT_TRUE(va && va->status.attached) << name("va-relist-", i);
    EXPECT_FALSE(va->status.attach_error.has_value())
        << name("va-relist-", i) << ": " << va->status.attach_error->message;
    auto pv = admin_->Get<kube::PersistentVolume>("", name("pv-relist-", i));
    ASSERT_TRUE(pv.ok()) << pv.error().message;
    EXPECT_EQ(Count(pv->metadata.finalizers, ours), 1) << name("pv-relist-", i);
    EXPECT_EQ(Count(pv->metadata.finalizers, other), i % 2) << name("pv-relist-", i);
  }
  const std::string log = AttacherLog();
  // A fresh copy of an even PV has ours: only the stale one leads to a patch.
  for (int i = 0; i < kVolumes; i += 2) {
    std::string pv = "PersistentVolume=\"" + name("pv-relist-", i) + "\"";
    EXPECT_GE(CountLinesWith(log, kPvPatchedLine, pv), 1) << pv << ": the stale copy was not used";
  }
  EXPECT_EQ(CountLinesWith(log, kBackoffLine, "va-relist-"), 0);
}

// Another client (here the test's admin) writes annotations of its own on
// every VA in 5 rounds during an attach storm. Its first write to a VA follows
// the attacher's "Attaching" log line for it, so it lands while that sync,
// throttled to 5 requests/s with 10 workers, waits to send the finalizer +
// node-id patch for a copy without annotations; the write's answer shows
// whether it did (no finalizer of ours yet). A JSON Patch would have to `test`
// that the annotation map is missing and be refused; the strategic merge
// patch (kube/api/strategic_metadata_patch.h) is merged into the VA as it
// stands, so none may fail, save an error or cost a retry with backoff.
TEST_F(StaleCacheTest, AnotherClientsAnnotationRoundsDuringAttachStormFailNoPatch) {
  constexpr int kVolumes = 15;
  constexpr int kRounds = 5;
  const std::string ours = attacher::FinalizerFor(kStaleDriver);
  Prepare("rounds");
  auto name = [](std::string_view prefix, int i) {
    return std::string(prefix) + std::to_string(i);
  };
  for (int i = 0; i < kVolumes; ++i) {
    CreatePv(CsiPv(name("pv-rounds-", i), kStaleDriver, name("vol-rounds-", i)));
  }
  StartAttacherAndAwaitSync(
      {"--worker-threads=10", "--kube-api-qps=5", "--kube-api-burst=1", "-v=6"});
  for (int i = 0; i < kVolumes; ++i) {
    CreateVa(name("va-rounds-", i), kStaleDriver, name("pv-rounds-", i), node_);
  }

  // Returns whether the write landed before our finalizer did.
  auto write_round = [&](int i, int round) {
    const std::string r = std::to_string(round);
    auto written = admin_->Patch<kube::VolumeAttachment>(
        "", name("va-rounds-", i), kube::PatchType::kMerge,
        R"({"metadata":{"annotations":{"other.example.com/round":")" + r +
            R"(","other.example.com/round-)" + r + R"(":"done"}}})");
    EXPECT_TRUE(written.ok()) << written.error().message;
    return written.ok() && Count(written->metadata.finalizers, ours) == 0;
  };
  // VAs whose first foreign write landed after our sync began and before our
  // patch: the race the JSON Patch lost.
  int raced = 0;
  std::vector<bool> first_written(kVolumes, false);
  int pending = kVolumes;
  auto deadline = std::chrono::steady_clock::now() + 120s;
  while (pending > 0) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "some VA was never attached";
    const std::string log = AttacherLog();
    for (int i = 0; i < kVolumes; ++i) {
      std::string attaching = "VolumeAttachment=\"" + name("va-rounds-", i) + "\"";
      if (first_written[i] || CountLinesWith(log, "\"Attaching\"", attaching) == 0) continue;
      raced += write_round(i, 1);
      first_written[i] = true;
      --pending;
    }
    std::this_thread::sleep_for(20ms);
  }
  for (int round = 2; round <= kRounds; ++round) {
    for (int i = 0; i < kVolumes; ++i) write_round(i, round);
  }

  for (int i = 0; i < kVolumes; ++i) {
    const std::string va_name = name("va-rounds-", i);
    auto va = AwaitVa(va_name, Attached);
    ASSERT_TRUE(va && va->status.attached) << va_name;
    EXPECT_FALSE(va->status.attach_error.has_value()) << va_name;
    EXPECT_EQ(Count(va->metadata.finalizers, ours), 1) << va_name;
    const kube::StringMap& annotations = va->metadata.annotations;
    auto annotation = [&](std::string_view key) {
      auto it = annotations.find(key);
      return it == annotations.end() ? std::string("<none>") : it->second;
    };
    EXPECT_EQ(annotation(attacher::kNodeIdAnnotation), kStaleNodeId) << va_name;
    EXPECT_EQ(annotation("other.example.com/round"), std::to_string(kRounds)) << va_name;
    for (int round = 1; round <= kRounds; ++round) {
      EXPECT_EQ(annotation("other.example.com/round-" + std::to_string(round)), "done") << va_name;
    }
  }
  const std::string log = AttacherLog();
  ASSERT_GT(CountLinesWith(log, "\"Response\"", kVaUrl), 0) << "no answers logged to count";
  const int refused = CountLinesWith(log, kRefusedStatus, kVaUrl);
  EXPECT_EQ(refused, 0) << log;
  EXPECT_EQ(CountLinesWith(log, kBackoffLine), 0) << log;
  // Otherwise the writes raced nothing and the test proves nothing.
  ASSERT_GT(raced, 0) << "no patch of ours came after the other client's first write";
  RecordProperty("raced_vas", raced);
  RecordProperty("refused_patches", refused);
  std::cout << "VAs whose patch of ours came after the other client's first write: " << raced
            << " of " << kVolumes << "; patches of ours refused: " << refused << "\n";
}

}  // namespace
}  // namespace attacher_it
