// docs/provisioner.md §5 and §9.5: CapacityController over fake sources of
// classes, CSINodes, Nodes and CSIStorageCapacities, a scripted GetCapacity
// and a recording API (provisioner_fakes.h's CallLog and FakeClock): one
// object per (class, segment) however many nodes share the segment, none
// for segments a class's allowedTopologies excludes, no write when the
// driver's answer did not change, duplicates reduced to one, refreshes of
// a provisioned volume's segment only.
#include "provisioner/capacity_controller.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "provisioner_fakes.h"

namespace provisioner {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;

constexpr char kZone[] = "zone";
constexpr auto kPoll = 1min;

std::string SegmentText(const TopologyTerm& segment) {
  std::string text;
  for (const auto& [key, value] : segment) text += (text.empty() ? "" : ",") + key + "=" + value;
  return text;
}

// GetCapacity answers by segment text ("zone=a"); 1 GiB when not scripted.
class FakeCapacityDriver final : public CapacityDriver {
 public:
  explicit FakeCapacityDriver(fakes::CallLog& log) : log_(log) {}
  void Answer(const std::string& segment, int64_t bytes) {
    std::lock_guard lock(mu_);
    answers_[segment] = bytes;
  }
  base::Result<ReportedCapacity> GetCapacity(const kube::StringMap&,
                                             const TopologyTerm& segment) override {
    const std::string text = SegmentText(segment);
    log_.Add("GetCapacity", text);
    std::lock_guard lock(mu_);
    auto it = answers_.find(text);
    return ReportedCapacity{.available_bytes = it == answers_.end() ? int64_t{1} << 30 : it->second,
                            .maximum_volume_size = std::nullopt};
  }

 private:
  fakes::CallLog& log_;
  std::mutex mu_;
  std::map<std::string, int64_t> answers_;
};

// Records "CREATE <class>/<segment>: <capacity>", "UPDATE <name>: <capacity>"
// and "DELETE <name>"; created objects are named csisc-1, csisc-2, ...
class FakeCapacityApi final : public CapacityApi {
 public:
  explicit FakeCapacityApi(fakes::CallLog& log) : log_(log) {}
  base::Result<kube::CSIStorageCapacity> Create(const kube::CSIStorageCapacity& object,
                                                const std::string& generate_name) override {
    kube::CSIStorageCapacity created = object;
    std::lock_guard lock(mu_);
    created.metadata.name = generate_name + std::to_string(++created_);
    created.metadata.resource_version = "1";
    log_.Add("CREATE",
             created.storage_class_name + "/" +
                 SegmentText(SegmentOfSelector(created.node_topology).value_or(TopologyTerm{})),
             created.capacity.value_or(""));
    return created;
  }
  base::Result<kube::CSIStorageCapacity> Update(const kube::CSIStorageCapacity& object) override {
    log_.Add("UPDATE", object.metadata.name, object.capacity.value_or(""));
    return object;
  }
  base::Status Delete(const std::string&, const std::string& name) override {
    log_.Add("DELETE", name);
    return {};
  }

 private:
  fakes::CallLog& log_;
  std::mutex mu_;
  int created_ = 0;
};

kube::StorageClass DelayedClass(const std::string& name,
                                std::vector<kube::TopologySelectorTerm> allowed = {}) {
  kube::StorageClass storage_class = fakes::DriverClass(name);
  storage_class.volume_binding_mode = std::string(kube::kBindingWaitForFirstConsumer);
  storage_class.allowed_topologies = std::move(allowed);
  return storage_class;
}

kube::StorageClass ImmediateClass(const std::string& name) {
  kube::StorageClass storage_class = fakes::DriverClass(name);
  storage_class.volume_binding_mode = std::string(kube::kBindingImmediate);
  return storage_class;
}

kube::CSINode CsiNodeOf(const std::string& name) {
  kube::CSINode csi_node;
  csi_node.metadata.name = name;
  csi_node.spec.drivers.push_back({.name = std::string(fakes::kDriver),
                                   .node_id = name,
                                   .topology_keys = {kZone},
                                   .allocatable_count = std::nullopt});
  return csi_node;
}

kube::Node NodeIn(const std::string& name, const std::string& zone) {
  kube::Node node;
  node.metadata.name = name;
  node.metadata.resource_version = "1";
  node.metadata.labels[kZone] = zone;
  return node;
}

kube::CSIStorageCapacity Published(const std::string& name, const std::string& class_name,
                                   const std::string& zone, const std::string& capacity) {
  kube::CSIStorageCapacity object;
  object.metadata.namespace_ = "kube-system";
  object.metadata.name = name;
  object.metadata.resource_version = "1";
  object.storage_class_name = class_name;
  object.node_topology = SelectorOf({{kZone, zone}});
  object.capacity = capacity;
  return object;
}

class CapacityControllerTest : public fakes::World {
 protected:
  void Start(std::vector<kube::StorageClass> classes, std::vector<kube::Node> nodes,
             std::vector<kube::CSIStorageCapacity> objects = {}) {
    std::vector<kube::CSINode> csi_nodes;
    for (const kube::Node& node : nodes) csi_nodes.push_back(CsiNodeOf(node.metadata.name));
    classes_.SetItems(std::move(classes));
    nodes_.SetItems(std::move(nodes));
    csi_nodes_.SetItems(std::move(csi_nodes));
    objects_.SetItems(std::move(objects));
    CapacityOptions options;
    options.driver = std::string(fakes::kDriver);
    options.namespace_ = "kube-system";
    options.poll_interval = kPoll;
    options.loop.name = "csistoragecapacity";
    kube::InformerSet& informers = MakeInformers();
    informers.UseSource(nodes_);
    informers.UseSource(csi_nodes_);
    informers.UseSource(objects_, CapacityLabelSelector(options));
    controller_.emplace(std::move(options), informers, capacity_api_, capacity_driver_, clock_);
    RunController(*controller_);
  }
  // The created object as the watch then reports it.
  void DeliverCreated(const std::string& name, const std::string& class_name,
                      const std::string& zone, const std::string& capacity) {
    Send(objects_, kube::WatchEventType::kAdded, Published(name, class_name, zone, capacity));
  }
  // Moves the clock to the poll due at `polls` intervals after the start.
  void AdvanceToPoll(int polls) { AdvanceToTimer(kStart + polls * kPoll); }
  std::vector<std::string> Writes() const {
    std::vector<std::string> writes;
    for (const std::string& call : log_.All()) {
      if (!call.starts_with("GetCapacity")) writes.push_back(call);
    }
    return writes;
  }

  testsupport::FakeListerWatcher<kube::Node> nodes_;
  testsupport::FakeListerWatcher<kube::CSINode> csi_nodes_;
  testsupport::FakeListerWatcher<kube::CSIStorageCapacity> objects_;
  FakeCapacityDriver capacity_driver_{log_};
  FakeCapacityApi capacity_api_{log_};
  std::optional<CapacityController> controller_;
};

// One worker takes the items in key order ("fast/zone=a" before
// "fast/zone=z"): once the last one's call is seen, the others are done,
// so the checks below never race the worker.

// #1450: three nodes of one zone make one item and one object.
TEST_F(CapacityControllerTest, NodesSharingASegmentGetOneObject) {
  Start({DelayedClass("fast")},
        {NodeIn("n1", "a"), NodeIn("n2", "a"), NodeIn("n3", "a"), NodeIn("n4", "z")});
  ASSERT_TRUE(log_.Await("CREATE", "fast/zone=z"));
  EXPECT_THAT(Writes(), ElementsAre("CREATE fast/zone=a: 1Gi", "CREATE fast/zone=z: 1Gi"));
  EXPECT_EQ(log_.Count("GetCapacity", "zone=a"), 1u);
}

// §9.5 (#1162): a segment the class's allowedTopologies excludes is never
// asked for; the Immediate class gets nothing.
TEST_F(CapacityControllerTest, SegmentsTheClassExcludesAreNeverAskedFor) {
  Start({DelayedClass("fast", {{.match_label_expressions = {{kZone, {"a"}}}}}),
         ImmediateClass("now"), DelayedClass("zz-last")},
        {NodeIn("n1", "a"), NodeIn("n2", "b")});
  ASSERT_TRUE(log_.Await("CREATE", "zz-last/zone=b"));
  EXPECT_THAT(Writes(), ElementsAre("CREATE fast/zone=a: 1Gi", "CREATE zz-last/zone=a: 1Gi",
                                    "CREATE zz-last/zone=b: 1Gi"));
  EXPECT_EQ(log_.Count("GetCapacity", "zone=b"), 1u);  // zz-last's
}

// §5: the poll asks again; an unchanged answer writes nothing, a changed
// one replaces the object.
TEST_F(CapacityControllerTest, PollWritesOnlyWhatTheDriverChanged) {
  capacity_driver_.Answer("zone=a", int64_t{5} << 30);
  Start({DelayedClass("fast")}, {NodeIn("n1", "a"), NodeIn("n2", "z")});
  ASSERT_TRUE(log_.Await("CREATE", "fast/zone=z"));
  DeliverCreated("csisc-1", "fast", "a", "5Gi");
  DeliverCreated("csisc-2", "fast", "z", "1Gi");
  AdvanceToPoll(1);
  ASSERT_TRUE(log_.Await("GetCapacity", "zone=z", 2));
  EXPECT_EQ(log_.Count("GetCapacity", "zone=a"), 2u);
  EXPECT_THAT(Writes(), ElementsAre("CREATE fast/zone=a: 5Gi", "CREATE fast/zone=z: 1Gi"));

  capacity_driver_.Answer("zone=a", int64_t{7} << 30);
  AdvanceToPoll(2);
  ASSERT_TRUE(log_.Await("GetCapacity", "zone=z", 3));
  EXPECT_THAT(Writes(), ElementsAre("CREATE fast/zone=a: 5Gi", "CREATE fast/zone=z: 1Gi",
                                    "UPDATE csisc-1: 7Gi"));
}

// §9.5: two objects for one item (as upstream left them, #1450) become one;
// an object of no item goes.
TEST_F(CapacityControllerTest, DuplicatesAndStraysAreDeleted) {
  Start({DelayedClass("fast")}, {NodeIn("n1", "a"), NodeIn("n2", "z")},
        {Published("csisc-aaa", "fast", "a", "1Gi"), Published("csisc-bbb", "fast", "a", "1Gi"),
         Published("csisc-old", "gone", "a", "1Gi")});
  ASSERT_TRUE(log_.Await("CREATE", "fast/zone=z"));
  EXPECT_THAT(Writes(),
              ElementsAre("DELETE csisc-bbb", "DELETE csisc-old", "CREATE fast/zone=z: 1Gi"));
  EXPECT_EQ(controller_->Counts().obsolete, 1u);  // csisc-old, until its deletion is seen
}

// §5 "Triggers": a volume made in zone a refreshes zone a's items only,
// of every class.
TEST_F(CapacityControllerTest, ProvisionedVolumeRefreshesItsSegmentOnly) {
  Start({DelayedClass("fast"), DelayedClass("zz")}, {NodeIn("n1", "a"), NodeIn("n2", "b")});
  ASSERT_TRUE(log_.Await("CREATE", "zz/zone=b"));
  DeliverCreated("csisc-1", "fast", "a", "1Gi");
  DeliverCreated("csisc-2", "fast", "b", "1Gi");
  DeliverCreated("csisc-3", "zz", "a", "1Gi");
  DeliverCreated("csisc-4", "zz", "b", "1Gi");
  kube::PersistentVolume volume;
  volume.spec.node_affinity = {{.match_expressions = {{kZone, "In", {"a"}}}}};
  controller_->VolumeCreated(volume, "fast");
  // fast/zone=b sorts between the two refreshed items.
  ASSERT_TRUE(log_.Await("GetCapacity", "zone=a", 4));
  EXPECT_EQ(log_.Count("GetCapacity", "zone=b"), 2u);
  CapacityCounts counts = controller_->Counts();
  EXPECT_EQ(counts.goal, 4u);
  EXPECT_EQ(counts.current, 4u);
  EXPECT_EQ(counts.obsolete, 0u);
}

}  // namespace
}  // namespace provisioner
