// The attacher where a cluster's controllers act (tests/support/control_plane.h,
// ControlPlaneOptions::controller_manager): kube-controller-manager's
// PersistentVolume binder binds pre-provisioned volumes to claims, and its
// attach-detach controller creates a VolumeAttachment for each volume a Pod on
// a Node uses and deletes it once no Pod there does. The same checks run
// against our csi-attacher and upstream's (UPSTREAM_ATTACHER_BIN), each with
// the e2e mock driver serving one mock per node (csi-mock --node-ids), whose
// log orders every ControllerPublishVolume and ControllerUnpublishVolume per
// volume and node. No kubelet runs: Nodes, CSINodes and what a kubelet
// reports as mounted (status.volumesInUse) come from
// tests/support/cluster_objects.h.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/file.h"
#include "kube/client/api_error.h"
#include "tests/integration/attacher/attacher_fixture.h"
#include "tests/support/cluster_objects.h"
#include "tests/support/csi_sidecars.h"
#include "tests/support/peer_binaries.h"

namespace attacher_it {
namespace {

using namespace std::chrono_literals;
using testsupport::ClaimObject;
using testsupport::CsiVolumeName;
using testsupport::Eventually;
using testsupport::NodeObject;
using testsupport::PodObject;

// kCsiSidecars: ours inside csi-sidecars --controllers=attacher (docs/csi-sidecars.md).
enum class Attacher { kOurs, kUpstream, kCsiSidecars };

std::string AttacherName(Attacher attacher) {
  switch (attacher) {
    case Attacher::kOurs:
      return "ours";
    case Attacher::kUpstream:
      return "upstream";
    case Attacher::kCsiSidecars:
      return "csisidecars";
  }
  return "";
}
std::string ParamName(const ::testing::TestParamInfo<Attacher>& info) {
  return AttacherName(info.param);
}

#define ASSERT_OK(expr)                                                    \
  do {                                                                     \
    const base::Status status_ = (expr);                                   \
    ASSERT_TRUE(status_.ok()) << #expr << ": " << status_.error().message; \
  } while (0)

// What the attach-detach controller takes for a detach or an attach, plus
// the attacher's work and a busy machine's slack.
constexpr auto kTimeout = 90s;

// One ControllerPublishVolume or ControllerUnpublishVolume as csi-mock logs
// it: a "start" line when it begins and an "end" line with its code.
struct DriverEvent {
  bool start = false;
  bool publish = false;  // else unpublish
  std::string code;      // end lines only
  std::string volume;
  std::string node;
};

class AttachDetachControllerTest : public AttacherTest,
                                   public ::testing::WithParamInterface<Attacher> {
 protected:
  static void SetUpTestSuite() { StartControlPlane({.controller_manager = true}); }

  void SetUp() override {
    AttacherTest::SetUp();
    ASSERT_NE(plane_->controller_manager_pid(), 0) << "kube-controller-manager did not start";
    if (GetParam() == Attacher::kUpstream) {
      auto binary = testsupport::FindPeer("UPSTREAM_ATTACHER_BIN", "upstream",
                                          work_dir() + "/peers-build.log");
      ASSERT_TRUE(binary.ok()) << "upstream csi-attacher (the peer this test compares with) is "
                                  "missing: "
                               << binary.error().message;
      attacher_binary_ = *binary;
    } else if (GetParam() == Attacher::kCsiSidecars) {
      auto launcher = testsupport::CsiSidecarsAs("attacher", CSI_SIDECARS_BIN);
      ASSERT_TRUE(launcher.ok()) << launcher.error().message;
      attacher_binary_ = *launcher;
    } else {
      attacher_binary_ = ATTACHER_BIN;
    }
  }

  void TearDown() override {
    if (HasFailure()) {
      std::cerr << "---- kube-controller-manager log tail ----\n"
                << TailOf(plane_->controller_manager_log(), 40) << "\n";
    }
    AttacherTest::TearDown();
  }

  std::string AttacherBinary() const override { return attacher_binary_; }

  // Names unique per test and attacher: one control plane, and its
  // controllers, serve the whole suite. `tag` is short: it names the driver
  // (a CSIDriver name has at most 63 characters) and the socket (108).
  void Begin(const std::string& tag) {
    prefix_ = tag + (GetParam() == Attacher::kOurs       ? "-ours"
                     : GetParam() == Attacher::kUpstream ? "-up"
                                                         : "-aio");
    driver_name_ = prefix_ + ".adc.csi.example.com";
    socket_ = plane_->work_dir() + "/" + prefix_ + ".sock";
  }
  std::string Name(const std::string& what) const { return prefix_ + "-" + what; }
  std::string NodeId(const std::string& node) const { return node + "-id"; }
  const std::string& driver() const { return driver_name_; }

  // csi-mock with one mock per node and `volumes` volumes (IDs 4, 5, ...);
  // the CSIDriver (attachRequired), and each node with its CSINode.
  void StartDriverAndNodes(const std::vector<NodeObject>& nodes, int volumes) {
    auto mock = testsupport::FindPeer("CSI_MOCK_BIN", "csi-mock", work_dir() + "/peers-build.log");
    ASSERT_TRUE(mock.ok()) << "csi-mock peer missing: " << mock.error().message;
    std::string node_ids;
    for (const NodeObject& node : nodes) {
      node_ids += (node_ids.empty() ? "" : ",") + NodeId(node.name);
    }
    auto process = testsupport::Process::Spawn(
        {.argv = {*mock, "--endpoint=" + socket(), "--name=" + driver(),
                  "--create-volumes=" + std::to_string(volumes), "--node-ids=" + node_ids},
         .log_file = work_dir() + "/driver.log"});
    ASSERT_TRUE(process.ok()) << process.error().message;
    driver_ = std::move(*process);
    ASSERT_TRUE(Eventually(10s,
                           [&]() -> base::Status {
                             if (!driver_->IsRunning()) return base::Error("csi-mock exited");
                             if (!std::filesystem::exists(socket()))
                               return base::Error("no socket yet");
                             return {};
                           })
                    .ok())
        << "csi-mock did not start (one older than --node-ids?):\n"
        << driver_->LogTail(20);

    ASSERT_OK(testsupport::CreateCsiDriver(*admin_, driver(), /*attach_required=*/true));
    for (const NodeObject& node : nodes) {
      ASSERT_OK(testsupport::CreateNode(*admin_, node));
      ASSERT_OK(testsupport::CreateCsiNode(*admin_, node.name, driver(), NodeId(node.name)));
    }
  }

  // A pre-provisioned volume of the driver bound by the real binder to a claim.
  void CreateClaim(const std::string& claim, const std::string& volume, const std::string& handle) {
    ASSERT_OK(testsupport::CreateBoundClaim(
        *admin_, {.claim = claim, .volume = volume, .driver = driver(), .handle = handle}));
  }

  // Waits for the attach-detach controller's VolumeAttachment of `volume` to
  // `node` and for the attacher to attach it; returns its name.
  std::string AwaitAttached(const std::string& volume, const std::string& node) {
    std::string name;
    auto found = Eventually(kTimeout, [&]() -> base::Status {
      auto va = testsupport::FindVolumeAttachment(*admin_, volume, node);
      if (!va.ok()) return va.error();
      name = *va;
      return {};
    });
    EXPECT_TRUE(found.ok()) << "the attach-detach controller made no VolumeAttachment: "
                            << found.error().message;
    if (!found.ok()) return "";
    auto va = AwaitVa(name, Attached, kTimeout);
    EXPECT_TRUE(va && va->status.attached) << name << " of " << volume << " never attached";
    if (va) {
      EXPECT_EQ(va->spec.attacher, driver());
      EXPECT_TRUE(CreatedByControllerManager(name)) << name;
    }
    return name;
  }

  // Whether kube-controller-manager (and no test code) wrote the object's
  // spec: the field manager of its creation.
  bool CreatedByControllerManager(const std::string& va) {
    auto body = admin_->Request("GET", "/apis/storage.k8s.io/v1/volumeattachments/" + va);
    if (!body.ok()) return false;
    auto object = nlohmann::json::parse(*body, nullptr, false);
    if (object.is_discarded()) return false;
    for (const auto& entry : object["metadata"].value("managedFields", nlohmann::json::array())) {
      if (entry.contains("fieldsV1") && entry["fieldsV1"].contains("f:spec")) {
        return entry.value("manager", "") == "kube-controller-manager";
      }
    }
    return false;
  }

  // Polls the Node's status.volumesAttached until it lists (or no longer
  // lists) the driver's volume `handle`.
  void AwaitReported(const std::string& node, const std::string& handle, bool listed) {
    const std::string name = CsiVolumeName(driver(), handle);
    auto status = Eventually(kTimeout, [&]() -> base::Status {
      auto attached = testsupport::VolumesAttached(*admin_, node);
      if (!attached.ok()) return attached.error();
      bool has = std::find(attached->begin(), attached->end(), name) != attached->end();
      if (has != listed) {
        return base::Error(
            fmt::format("status.volumesAttached of {} is [{}]", node, fmt::join(*attached, ", ")));
      }
      return {};
    });
    EXPECT_TRUE(status.ok()) << name << (listed ? " never listed" : " still listed") << ": "
                             << status.error().message;
  }

  // The driver's publish and unpublish lines, in the order it logged them.
  std::vector<DriverEvent> DriverEvents() const {
    static const std::regex kLine(
        R"(csi-mock (start|call) /csi\.v1\.Controller/Controller(Publish|Unpublish)Volume(?:: (\w+))? volume=(\S*) node=(\S*))");
    std::vector<DriverEvent> events;
    std::ifstream in(work_dir() + "/driver.log");
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, kLine)) continue;
      events.push_back({.start = m[1] == "start",
                        .publish = m[2] == "Publish",
                        .code = m[3],
                        .volume = m[4],
                        .node = m[5]});
    }
    return events;
  }

  // How many calls of one kind the driver answered OK for volume on node.
  int Succeeded(bool publish, const std::string& volume, const std::string& node) const {
    int n = 0;
    for (const DriverEvent& e : DriverEvents()) {
      n += !e.start && e.publish == publish && e.code == "OK" && e.volume == volume &&
           e.node == NodeId(node);
    }
    return n;
  }

  void AwaitUnpublished(const std::string& volume, const std::string& node) {
    auto status = Eventually(kTimeout, [&]() -> base::Status {
      if (Succeeded(false, volume, node) > 0) return {};
      return base::Error("no ControllerUnpublishVolume OK yet");
    });
    EXPECT_TRUE(status.ok()) << "volume " << volume << " never unpublished from " << node;
  }

  // ControllerPublishVolume calls the driver saw for each VolumeAttachment
  // (volume on node), all and OK. Ours publishes once per attach: the events
  // of its own writes cause no second sync (docs/design.md §3.1). Upstream's
  // figure is only reported: it publishes twice for about one attach in five.
  void ReportPublishCalls() {
    std::map<std::string, std::pair<int, int>> calls;  // "volume@node" -> (all, OK)
    for (const DriverEvent& e : DriverEvents()) {
      if (e.start || !e.publish) continue;
      auto& [all, ok] = calls[e.volume + "@" + e.node];
      ++all;
      ok += e.code == "OK";
    }
    if (GetParam() != Attacher::kUpstream) {
      for (const auto& [va, counts] : calls) {
        EXPECT_EQ(counts.first, 1) << "ControllerPublishVolume calls for " << va;
      }
    }
    std::string summary;
    for (const auto& [va, counts] : calls) {
      summary += fmt::format("{}{}: {} ({} OK)", summary.empty() ? "" : ", ", va, counts.first,
                             counts.second);
    }
    std::cout << "[ publish  ] " << AttacherName(GetParam())
              << " ControllerPublishVolume calls per VolumeAttachment: " << summary << "\n";
    RecordProperty("publish_calls_per_volume_attachment", summary);
  }

  static std::string TailOf(const std::string& path, int lines) {
    auto text = base::ReadFile(path);
    if (!text.ok()) return "(" + path + " unreadable)";
    std::vector<std::string> all;
    std::istringstream in(*text);
    for (std::string line; std::getline(in, line);) all.push_back(line);
    std::string tail;
    for (std::size_t i = all.size() > static_cast<std::size_t>(lines) ? all.size() - lines : 0;
         i < all.size(); ++i) {
      tail += all[i] + "\n";
    }
    return tail;
  }

  std::string attacher_binary_;
  std::string prefix_;
  std::string driver_name_;
};

// A Pod on a Node using a bound claim: the attach-detach controller creates
// the VolumeAttachment, the attacher attaches it, the controller reports the
// volume in the Node's status.volumesAttached. The Pod deleted: the
// VolumeAttachment goes, after the driver unpublished the volume.
TEST_P(AttachDetachControllerTest, PodVolumeIsAttachedAndReportedThenDetachedWithThePod) {
  Begin("pod");
  const std::string node = Name("node");
  ASSERT_NO_FATAL_FAILURE(
      StartDriverAndNodes({{.name = node, .labels = {{"topology.example.com/zone", "a"}}}}, 1));
  ASSERT_NO_FATAL_FAILURE(CreateClaim(Name("claim"), Name("pv"), "4"));
  StartAttacher();
  ASSERT_OK(testsupport::CreatePod(*admin_,
                                   {.name = Name("app"), .node = node, .claims = {Name("claim")}}));

  const std::string va = AwaitAttached(Name("pv"), node);
  ASSERT_FALSE(va.empty());
  EXPECT_GE(Succeeded(true, "4", node), 1) << "the driver never published the volume";
  AwaitReported(node, "4", /*listed=*/true);

  ASSERT_OK(testsupport::DeletePod(*admin_, "default", Name("app")));
  EXPECT_TRUE(AwaitVaGone(va, kTimeout)) << va << " outlived its Pod";
  AwaitUnpublished("4", node);
  AwaitReported(node, "4", /*listed=*/false);
  ReportPublishCalls();
}

// ReadWriteOnce volume whose Pod moves from node A to node B (deleted on A,
// its replacement created on B at once, as a controller would): the driver
// never has it published on both. Every ControllerPublishVolume to a node
// begins only when no other node holds the volume, i.e. after the
// ControllerUnpublishVolume from A has returned OK.
TEST_P(AttachDetachControllerTest, MovedVolumeIsUnpublishedFromTheOldNodeBeforeItIsPublished) {
  Begin("move");
  const std::string a = Name("a");
  const std::string b = Name("b");
  ASSERT_NO_FATAL_FAILURE(StartDriverAndNodes({{.name = a}, {.name = b}}, 1));
  ASSERT_NO_FATAL_FAILURE(CreateClaim(Name("claim"), Name("pv"), "4"));
  StartAttacher();

  ASSERT_OK(testsupport::CreatePod(*admin_,
                                   {.name = Name("app-a"), .node = a, .claims = {Name("claim")}}));
  const std::string va_a = AwaitAttached(Name("pv"), a);
  ASSERT_FALSE(va_a.empty());
  AwaitReported(a, "4", true);

  ASSERT_OK(testsupport::DeletePod(*admin_, "default", Name("app-a")));
  ASSERT_OK(testsupport::CreatePod(*admin_,
                                   {.name = Name("app-b"), .node = b, .claims = {Name("claim")}}));
  const std::string va_b = AwaitAttached(Name("pv"), b);
  ASSERT_FALSE(va_b.empty());
  EXPECT_NE(va_a, va_b);
  EXPECT_TRUE(AwaitVaGone(va_a, kTimeout));
  AwaitReported(b, "4", true);
  AwaitReported(a, "4", false);

  // Replays the driver's log: a node holds the volume from the start of a
  // publish to it until an unpublish from it returned OK.
  std::set<std::string> holders;
  int publishes_a = 0, unpublishes_a = 0, publishes_b = 0;
  for (const DriverEvent& e : DriverEvents()) {
    if (e.volume != "4") continue;
    if (e.publish && e.start) {
      std::set<std::string> others = holders;
      others.erase(e.node);
      EXPECT_TRUE(others.empty()) << "publish to " << e.node << " began while " << *others.begin()
                                  << " still held the volume";
      holders.insert(e.node);
    } else if (e.publish && e.code != "OK") {
      holders.erase(e.node);  // refused: the driver did not publish it
    } else if (!e.publish && !e.start && e.code == "OK") {
      holders.erase(e.node);
    }
    if (!e.start && e.code == "OK") {
      publishes_a += e.publish && e.node == NodeId(a);
      unpublishes_a += !e.publish && e.node == NodeId(a);
      publishes_b += e.publish && e.node == NodeId(b);
    }
  }
  // The replay is no proof unless the move happened through the driver.
  EXPECT_GE(publishes_a, 1);
  EXPECT_GE(unpublishes_a, 1);
  EXPECT_GE(publishes_b, 1);

  ASSERT_OK(testsupport::DeletePod(*admin_, "default", Name("app-b")));
  EXPECT_TRUE(AwaitVaGone(va_b, kTimeout));
  ReportPublishCalls();
}

// A volume the Node reports in status.volumesInUse is not detached when its
// Pod goes. The proof that the controller acted on that deletion: a second
// volume on the same Node, not in use, whose Pod is deleted after the first
// one's, is detached. The attach-detach controller takes Pod deletions in
// order from one informer and weighs every attached volume nobody wants in
// each round of its reconciler, so by the time the second is detached it has
// weighed, and kept, the first. Once the Node no longer reports it in use,
// the first is detached as well.
TEST_P(AttachDetachControllerTest, VolumeInUseStaysAttachedWhileAnIdleOneIsDetached) {
  Begin("inuse");
  const std::string node = Name("node");
  ASSERT_NO_FATAL_FAILURE(
      StartDriverAndNodes({{.name = node, .volumes_in_use = {CsiVolumeName(driver(), "4")}}}, 2));
  ASSERT_NO_FATAL_FAILURE(CreateClaim(Name("claim-busy"), Name("pv-busy"), "4"));
  ASSERT_NO_FATAL_FAILURE(CreateClaim(Name("claim-idle"), Name("pv-idle"), "5"));
  StartAttacher();
  ASSERT_OK(testsupport::CreatePod(
      *admin_, {.name = Name("app-busy"), .node = node, .claims = {Name("claim-busy")}}));
  ASSERT_OK(testsupport::CreatePod(
      *admin_, {.name = Name("app-idle"), .node = node, .claims = {Name("claim-idle")}}));
  const std::string busy = AwaitAttached(Name("pv-busy"), node);
  const std::string idle = AwaitAttached(Name("pv-idle"), node);
  ASSERT_FALSE(busy.empty());
  ASSERT_FALSE(idle.empty());
  AwaitReported(node, "4", true);
  AwaitReported(node, "5", true);

  ASSERT_OK(testsupport::DeletePod(*admin_, "default", Name("app-busy")));
  ASSERT_OK(testsupport::DeletePod(*admin_, "default", Name("app-idle")));
  EXPECT_TRUE(AwaitVaGone(idle, kTimeout)) << "the idle volume was never detached";
  AwaitUnpublished("5", node);
  AwaitReported(node, "5", false);

  auto kept = admin_->Get<kube::VolumeAttachment>("", busy);
  ASSERT_TRUE(kept.ok()) << "the VolumeAttachment of the volume in use is gone: "
                         << kept.error().message;
  EXPECT_TRUE(kept->status.attached);
  EXPECT_TRUE(kept->metadata.deletion_timestamp.empty())
      << "the attach-detach controller deleted the VolumeAttachment of a volume in use";
  EXPECT_EQ(Succeeded(false, "4", node), 0) << "the driver unpublished the volume in use";
  AwaitReported(node, "4", true);

  // The kubelet unmounted it: now it goes.
  ASSERT_OK(testsupport::SetVolumesInUse(*admin_, node, {}));
  EXPECT_TRUE(AwaitVaGone(busy, kTimeout)) << "no detach once the volume was no longer in use";
  AwaitUnpublished("4", node);
  ReportPublishCalls();
}

INSTANTIATE_TEST_SUITE_P(Attachers, AttachDetachControllerTest,
                         ::testing::Values(Attacher::kOurs, Attacher::kUpstream,
                                           Attacher::kCsiSidecars),
                         ParamName);

}  // namespace
}  // namespace attacher_it
