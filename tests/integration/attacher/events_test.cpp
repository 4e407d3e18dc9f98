// docs/attacher.md §7 (external-attacher#363): a failing attach becomes one
// Warning Event on its VolumeAttachment whose count grows with the retries,
// when the attacher may write Events (the optional rule of
// deploy/kubernetes/csi-attacher/rbac.yaml, uncommented); with the stock RBAC the missing
// permission is logged once and attaching works as before.
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "base/file.h"
#include "kube/api/core/v1/event.h"
#include "tests/integration/attacher/attacher_fixture.h"
#include "tests/support/files.h"
#include "tests/support/source_dir.h"

namespace attacher_it {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view kCommentedEventsRule =
    "  #- apiGroups: [\"\"]\n"
    "  #  resources: [\"events\"]\n"
    "  #  verbs: [\"create\", \"patch\"]\n";
constexpr std::string_view kForbiddenWarning = "Cannot record Events: permission denied";

std::vector<kube::Event> EventsAbout(kube::Client& admin, const std::string& va_name) {
  kube::ListOptions options;
  options.field_selector = "involvedObject.name=" + va_name;
  auto list = admin.List<kube::Event>("default", options);
  EXPECT_TRUE(list.ok()) << list.error().message;
  return list.ok() ? list->items : std::vector<kube::Event>{};
}

// rbac.yaml with its optional events rule uncommented, exactly as an operator
// would enable it.
std::string RbacWithEvents() {
  auto manifest =
      base::ReadFile(testsupport::SourcePath("deploy/kubernetes/csi-attacher/rbac.yaml"));
  EXPECT_TRUE(manifest.ok()) << manifest.error().message;
  std::string text = manifest.ok() ? *manifest : "";
  auto pos = text.find(kCommentedEventsRule);
  EXPECT_NE(pos, std::string::npos) << "rbac.yaml lost its commented events rule";
  if (pos == std::string::npos) return text;
  std::string rule(kCommentedEventsRule);
  for (auto hash = rule.find('#'); hash != std::string::npos; hash = rule.find('#')) {
    rule.erase(hash, 1);
  }
  return text.replace(pos, kCommentedEventsRule.size(), rule);
}

// Both suites: a VA whose PV does not exist fails to attach on every retry.
class EventsTest : public AttacherTest {
 protected:
  std::optional<kube::VolumeAttachment> StartFailingAttach(const std::string& driver,
                                                           const std::string& node,
                                                           const std::string& va) {
    StartMockDriver(driver, 1);
    CreateCsiNode(node, driver, driver);
    StartAttacher();
    CreateVa(va, driver, "pv-never-created", node);
    return AwaitVa(va, HasAttachError);
  }
};

class EventsGrantedTest : public EventsTest {
 protected:
  static void SetUpTestSuite() {
    auto dir = testsupport::MakeTempDir("rbac-events");
    ASSERT_TRUE(dir.ok()) << dir.error().message;
    std::string path = *dir + "/rbac.yaml";
    ASSERT_TRUE(testsupport::WriteFile(path, RbacWithEvents()).ok());
    StartControlPlane({.rbac_manifest = path});
    std::filesystem::remove_all(*dir);  // applied at start, not read again
  }
  static constexpr const char* kDriver = "mock-events.csi.example.com";
};

TEST_F(EventsGrantedTest, FailingAttachGivesOneWarningEventWhoseCountGrows) {
  auto va = StartFailingAttach(kDriver, "node-events", "va-events");
  ASSERT_TRUE(va && va->status.attach_error) << "no attachError";

  // Retries run every 200ms..2s: within a minute the one Event counts several.
  std::vector<kube::Event> events;
  auto deadline = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < deadline) {
    events = EventsAbout(*admin_, "va-events");
    if (events.size() == 1 && events[0].count >= 3) break;
    std::this_thread::sleep_for(200ms);
  }
  ASSERT_EQ(events.size(), 1u) << "want one aggregated Event, not one per retry";
  const kube::Event& event = events[0];
  EXPECT_GE(event.count, 3);
  EXPECT_EQ(event.type, "Warning");
  EXPECT_EQ(event.reason, "AttachFailed");
  EXPECT_EQ(event.metadata.namespace_, "default");
  EXPECT_EQ(event.involved_object.kind, "VolumeAttachment");
  EXPECT_EQ(event.involved_object.api_version, "storage.k8s.io/v1");
  EXPECT_EQ(event.involved_object.name, "va-events");
  EXPECT_EQ(event.involved_object.uid, va->metadata.uid);
  EXPECT_EQ(event.source.component, "csi-attacher");
  EXPECT_EQ(event.reporting_component, "csi-attacher");
  auto latest = admin_->Get<kube::VolumeAttachment>("", "va-events");
  ASSERT_TRUE(latest.ok() && latest->status.attach_error);
  EXPECT_EQ(event.message, latest->status.attach_error->message);
  EXPECT_NE(event.message.find("pv-never-created"), std::string::npos) << event.message;
  EXPECT_EQ(CountOccurrences(AttacherLog(), kForbiddenWarning), 0);
}

// The stock RBAC (no events rule): the default control plane.
class EventsForbiddenTest : public EventsTest {
 protected:
  static constexpr const char* kDriver = "mock-noevents.csi.example.com";
};

TEST_F(EventsForbiddenTest, MissingPermissionIsLoggedOnceAndAttachingGoesOn) {
  auto failing = StartFailingAttach(kDriver, "node-noevents", "va-failing");
  ASSERT_TRUE(failing && failing->status.attach_error) << "no attachError";

  CreatePv(CsiPv("pv-noevents", kDriver, "4"));
  CreateVa("va-good", kDriver, "pv-noevents", "node-noevents");
  auto good = AwaitVa("va-good", [](const auto& va) { return va.status.attached; });
  ASSERT_TRUE(good && good->status.attached) << "the attach that can succeed did not";
  EXPECT_TRUE(MockDriverHasPublished(socket(), "4", kDriver));

  // Let the failing VA retry a few more times (backoff is capped at 2s).
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < deadline &&
         CountOccurrences(AttacherLog(), kForbiddenWarning) == 0) {
    std::this_thread::sleep_for(200ms);
  }
  std::this_thread::sleep_for(6s);
  std::string log = AttacherLog();
  EXPECT_EQ(CountOccurrences(log, kForbiddenWarning), 1) << log.substr(0, 4000);
  EXPECT_NE(log.find("create and patch on events"), std::string::npos);
  EXPECT_TRUE(EventsAbout(*admin_, "va-failing").empty());
  auto still = admin_->Get<kube::VolumeAttachment>("", "va-failing");
  ASSERT_TRUE(still.ok());
  EXPECT_TRUE(still->status.attach_error.has_value());
}

}  // namespace
}  // namespace attacher_it
