// Provision workload 4, capacity (issue 36): what storage capacity tracking
// costs at scale. --n Nodes (objects only, no kubelet) in 10 zones, each
// with the CSINode of the benchmark driver reporting the zone key, and 10
// WaitForFirstConsumer classes of the driver (the last 5 allowed in 3 zones
// only) exist before the provisioner starts with --enable-capacity, no
// owner (--capacity-ownerref-level=-1) and --capacity-poll-interval=30s;
// the driver reports topology and answers GetCapacity (1 TiB). No claims.
// Once the initial objects are written (none added for a poll period and
// 5 s) the run counts, over the next 4 poll periods: the GetCapacity calls the
// driver logged and the API writes of CSIStorageCapacity objects, per poll
// period. Figures: those two, the CSIStorageCapacity objects existing at the
// end, the GetCapacity calls before the counted periods, and seconds from the
// start until the last object was created (synced_s). No floor: the figures
// are what each tracker asks for.
#include <mutex>
#include <set>
#include <thread>

#include "bench/api_requests.h"
#include "bench/driver_log.h"
#include "bench/object_watch.h"
#include "bench/objects.h"
#include "bench/parallel.h"
#include "bench/provision_objects.h"
#include "bench/provision_workload.h"
#include "kube/api/storage/v1/csi_storage_capacity.h"

namespace bench {
namespace {

using namespace std::chrono_literals;

constexpr size_t kZones = 10;
constexpr size_t kClasses = 10;
constexpr size_t kUnrestrictedClasses = 5;
constexpr size_t kZonesOfRestrictedClass = 3;
constexpr std::chrono::seconds kPollInterval{30};
constexpr int kCountedPolls = 4;

// The CSIStorageCapacity objects that exist, and when the last new one was
// seen.
class CapacityTally {
 public:
  static base::Result<std::unique_ptr<CapacityTally>> Start(kube::Client& admin) {
    std::unique_ptr<CapacityTally> tally(new CapacityTally());
    auto watch = ObjectWatch<kube::CSIStorageCapacity>::Start(
        admin, [t = tally.get()](const kube::CSIStorageCapacity& object, bool deleted) {
          t->Record(object.metadata.name, deleted);
        });
    if (!watch.ok()) return watch.error();
    tally->watch_ = std::move(*watch);
    return tally;
  }
  size_t Existing() const {
    std::lock_guard lock(mu_);
    return names_.size();
  }
  std::optional<Clock::time_point> LastAdded() const {
    std::lock_guard lock(mu_);
    return last_added_;
  }

 private:
  CapacityTally() = default;
  void Record(const std::string& name, bool deleted) {
    std::lock_guard lock(mu_);
    if (deleted) {
      names_.erase(name);
    } else if (names_.insert(name).second) {
      last_added_ = Clock::now();
    }
  }

  mutable std::mutex mu_;
  std::set<std::string> names_;                                   // guarded by mu_
  std::optional<Clock::time_point> last_added_;                   // guarded by mu_
  std::unique_ptr<ObjectWatch<kube::CSIStorageCapacity>> watch_;  // last: stops first
};

// The GetCapacity calls the driver logged and the API writes of capacity
// objects so far.
struct CapacityCounts {
  double get_capacity = 0;
  double writes = 0;
};

base::Result<CapacityCounts> CountCapacityWork(RunContext& ctx) {
  static const RequestFilter kCapacities = {.resources = {"csistoragecapacities"}};
  auto log = ReadDriverLog(ctx.driver_log);
  if (!log.ok()) return log.error();
  auto requests = ScrapeRequestCounts(ctx.admin, kCapacities);
  if (!requests.ok()) return requests.error();
  return CapacityCounts{.get_capacity = log->calls["GetCapacity"],
                        .writes = ObjectWrites(*requests)};
}

class ProvisionCapacity : public ProvisionWorkload {
 public:
  explicit ProvisionCapacity(const BenchOptions& options)
      : nodes_(Names("node", options.n)), threads_(options.creator_threads) {}

  bool SettlesRequests() const override { return false; }
  bool HasFloor() const override { return false; }
  bool SharesControlPlane() const override { return true; }

  std::vector<std::string> DriverFlags() const override {
    return {"--capabilities=GET_CAPACITY", "--accessible-topology"};
  }
  std::vector<std::string> ProvisionerFlags() const override {
    return {"--enable-capacity", "--capacity-ownerref-level=-1",
            "--capacity-poll-interval=" + std::to_string(kPollInterval.count()) + "s"};
  }
  EnvVars ProvisionerEnv() const override { return {{"NAMESPACE", kProvisionNamespace}}; }

  base::Status Populate(kube::Client& admin) override {
    auto nodes = ForEachParallel(nodes_.size(), threads_, [&](size_t i) {
      return CreateZonedNode(admin, nodes_[i], ZoneOf(i, kZones));
    });
    if (!nodes.ok()) return nodes;
    for (size_t c = 0; c < kClasses; ++c) {
      std::vector<std::string> allowed;
      for (size_t z = 0; c >= kUnrestrictedClasses && z < kZonesOfRestrictedClass; ++z) {
        allowed.push_back(ZoneOf(c + z, kZones));
      }
      if (auto status = CreateZonedClass(admin, ObjectName("capacity-class", c), allowed);
          !status.ok()) {
        return status;
      }
    }
    return {};
  }

  // The objects the previous contender left go first: each run starts from
  // none.
  base::Status Prepare(RunContext& ctx) override {
    auto deleted = ctx.admin.Request("DELETE", std::string("/apis/storage.k8s.io/v1/namespaces/") +
                                                   kProvisionNamespace + "/csistoragecapacities");
    if (!deleted.ok()) return deleted.error().Wrap("deleting the CSIStorageCapacity objects");
    return {};
  }

  base::Status StartObserving(kube::Client& admin) override {
    auto tally = CapacityTally::Start(admin);
    if (!tally.ok()) return tally.error();
    tally_ = std::move(*tally);
    return {};
  }
  void StopObserving() override { tally_.reset(); }

  base::Result<Figures> Measure(RunContext& ctx) override {
    if (auto status = WaitInitialObjects(ctx); !status.ok()) return status.error();
    auto before = CountCapacityWork(ctx);
    if (!before.ok()) return before.error();
    std::this_thread::sleep_for(kPollInterval * kCountedPolls);
    auto after = CountCapacityWork(ctx);
    if (!after.ok()) return after.error();
    auto last_added = tally_->LastAdded();
    return Figures{
        {"capacity_objects", static_cast<double>(tally_->Existing())},
        {"synced_s", last_added ? Seconds(*last_added - ctx.started) : 0.0},
        {"get_capacity_at_sync", before->get_capacity},
        {"get_capacity_per_poll", (after->get_capacity - before->get_capacity) / kCountedPolls},
        {"capacity_writes_per_poll", (after->writes - before->writes) / kCountedPolls}};
  }

 private:
  // Until no object was added for a poll period and 5 s: the initial ones
  // are written (one a second after the first five: the capacity client's
  // default --kube-api-capacity-qps=1, burst 5).
  base::Status WaitInitialObjects(const RunContext& ctx) const {
    const auto deadline = ctx.started + std::chrono::seconds(ctx.options.phase_timeout_s);
    while (Clock::now() < deadline) {
      std::this_thread::sleep_for(1s);
      auto last = tally_->LastAdded();
      if (last && Clock::now() - *last > kPollInterval + 5s) return {};
    }
    return base::Error("the CSIStorageCapacity objects never stopped being added");
  }

  std::vector<std::string> nodes_;
  int threads_;
  std::unique_ptr<CapacityTally> tally_;
};

}  // namespace

std::unique_ptr<ProvisionWorkload> MakeProvisionCapacity(const BenchOptions& options) {
  return std::make_unique<ProvisionCapacity>(options);
}

}  // namespace bench
