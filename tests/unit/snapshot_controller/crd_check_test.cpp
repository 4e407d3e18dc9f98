// docs/snapshots.md §4.1: the snapshot-controller's CRD checks at start-up —
// the kinds listed and their order, upstream's backoff (100 ms, ×1.5, for at
// least 1 s), its messages and exit code, the group CRDs' warning, and a stop
// during the wait. A scripted API server answers; a fake clock drives the
// pauses, each asserted by its deadline before the clock moves past it.
#include "snapshot_controller/crd_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>

#include "tests/support/log_capture.h"
#include "tests/support/scripted_http_server.h"

namespace snapshot_controller {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;
using ::testing::StartsWith;
using testsupport::ScriptedHttpServer;
using testsupport::ScriptedResponse;
using testsupport::StatusBody;

constexpr char kSnapshots[] = "/apis/snapshot.storage.k8s.io/v1/volumesnapshots?limit=1";
constexpr char kClasses[] = "/apis/snapshot.storage.k8s.io/v1/volumesnapshotclasses?limit=1";
constexpr char kContents[] = "/apis/snapshot.storage.k8s.io/v1/volumesnapshotcontents?limit=1";
constexpr char kGroups[] = "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshots?limit=1";
constexpr char kGroupClasses[] =
    "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshotclasses?limit=1";
constexpr char kGroupContents[] =
    "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshotcontents?limit=1";

ScriptedResponse Listed() { return {200, {}, {R"({"items":[]})"}}; }
ScriptedResponse NotFound() {
  return {404,
          {{"Content-Type", "application/json"}},
          {StatusBody(404, "NotFound", "the server could not find the requested resource")}};
}

class CrdCheckTest : public ::testing::Test {
 protected:
  CrdCheckTest() {
    kube::RestConfig config;
    config.server = server_.url();
    config.qps = 0;  // no client-side limit: only the wait's clock matters
    auto client = kube::Client::Create(config);
    EXPECT_TRUE(client.ok()) << client.error().message;
    client_ = std::move(client).value();
  }

  CrdWait Wait(std::chrono::nanoseconds max) {
    return {.retry_crd_interval_max = max, .clock = clock_, .stop = stop_.get_token()};
  }

  // Runs `check` on its own thread: a pause blocks it on the fake clock.
  std::future<std::optional<int>> Start(std::function<std::optional<int>()> check) {
    return std::async(std::launch::async, std::move(check));
  }

  // For each offset from the start, waits until the check sleeps until
  // exactly then, and moves the clock there.
  void PassPauses(const std::vector<base::Clock::Duration>& offsets) {
    for (base::Clock::Duration offset : offsets) {
      ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start_ + offset}, 20s))
          << "no pause until " << std::chrono::duration<double>(offset).count() << " s";
      clock_.Advance(start_ + offset - clock_.Now());
    }
  }

  std::future<GroupSnapshotsCheck> StartGroups(std::function<GroupSnapshotsCheck()> check) {
    return std::async(std::launch::async, std::move(check));
  }

  template <class T>
  static T Result(std::future<T>& result) {
    if (result.wait_for(20s) != std::future_status::ready) {
      ADD_FAILURE() << "the check did not return";
      std::abort();  // a thread blocked on the fake clock cannot be abandoned
    }
    return result.get();
  }

  std::vector<std::string> Targets() const {
    std::vector<std::string> targets;
    for (const auto& request : server_.requests()) targets.push_back(request.target);
    return targets;
  }

  ScriptedHttpServer server_;
  std::unique_ptr<kube::Client> client_;
  base::FakeClock clock_;
  const base::Clock::TimePoint start_ = clock_.Now();
  std::stop_source stop_;
  testsupport::LogCapture logs_;
};

// Upstream's pauses: 100 ms, then each 1.5 times the one before.
const std::vector<base::Clock::Duration> kPauseEnds = {100ms, 250ms, 475ms, 812500us, 1318750us};

TEST_F(CrdCheckTest, SnapshotKindsServedListEachOnceWithLimitOne) {
  for (int i = 0; i < 3; ++i) server_.Script(Listed());
  auto result = Start([&] { return EnsureSnapshotCrds(*client_, Wait(30s)); });
  EXPECT_EQ(Result(result), std::nullopt);
  EXPECT_THAT(Targets(), ElementsAre(kSnapshots, kClasses, kContents));
  for (const auto& request : server_.requests()) EXPECT_EQ(request.method, "GET");
  EXPECT_THAT(logs_.Grep("Failed to list"), IsEmpty());
}

TEST_F(CrdCheckTest, AFailedListIsLoggedAndTheRoundRetriedFromTheFirstKind) {
  server_.Script(Listed());
  server_.Script(NotFound());
  for (int i = 0; i < 3; ++i) server_.Script(Listed());
  auto result = Start([&] { return EnsureSnapshotCrds(*client_, Wait(30s)); });
  PassPauses({100ms});
  EXPECT_EQ(Result(result), std::nullopt);
  EXPECT_THAT(Targets(), ElementsAre(kSnapshots, kClasses, kSnapshots, kClasses, kContents));
  auto lines = logs_.Grep(
      "\"Failed to list v1 volumesnapshotclasses with error=the server could not find the "
      "requested resource\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], StartsWith("E"));
}

// 100 ms ×1.5 each time; the last pause ends at the deadline, then exit 1.
TEST_F(CrdCheckTest, MissingSnapshotCrdsExitOneAtTheDeadline) {
  auto result = Start([&] { return EnsureSnapshotCrds(*client_, Wait(2s)); });
  std::vector<base::Clock::Duration> pauses = kPauseEnds;
  pauses.push_back(2s);  // 2.078125 s, cut at the deadline
  PassPauses(pauses);
  EXPECT_EQ(Result(result), 1);
  EXPECT_THAT(Targets(), SizeIs(6));  // one list per round: the first kind fails
  EXPECT_THAT(logs_.Grep("\"Failed to list v1 volumesnapshots with error="), SizeIs(6));
  auto lines = logs_.Grep(
      "\"Exiting due to failure to ensure CRDs exist during startup: context deadline exceeded\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], StartsWith("E"));
}

// max(--retry-crd-interval-max, 1s), as upstream.
TEST_F(CrdCheckTest, TheWaitLastsAtLeastOneSecond) {
  auto result = Start([&] { return EnsureSnapshotCrds(*client_, Wait(0s)); });
  PassPauses({100ms, 250ms, 475ms, 812500us, 1s});
  EXPECT_EQ(Result(result), 1);
  EXPECT_THAT(Targets(), SizeIs(5));
}

TEST_F(CrdCheckTest, StopDuringTheWaitExitsZero) {
  auto result = Start([&] { return EnsureSnapshotCrds(*client_, Wait(30s)); });
  PassPauses({100ms, 250ms});
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start_ + 475ms}, 20s));
  stop_.request_stop();
  EXPECT_EQ(Result(result), 0);
  EXPECT_THAT(logs_.Grep("Shutdown requested during startup"), SizeIs(1));
  EXPECT_THAT(logs_.Grep("Exiting due to failure"), IsEmpty());
  EXPECT_THAT(Targets(), SizeIs(3));
}

TEST_F(CrdCheckTest, GroupGateOffAsksNothingAndGroupsAreOff) {
  GroupSnapshotsCheck check = StartGroupSnapshots(false, *client_, Wait(30s));
  EXPECT_FALSE(check.enabled);
  EXPECT_EQ(check.exit, std::nullopt);
  EXPECT_THAT(server_.requests(), IsEmpty());
  EXPECT_THAT(logs_.lines(), IsEmpty());
}

// Served CRDs turn groups on, silently (upstream logs nothing either).
TEST_F(CrdCheckTest, GroupCrdsServedTurnGroupsOn) {
  for (int i = 0; i < 3; ++i) server_.Script(Listed());
  auto result = StartGroups([&] { return StartGroupSnapshots(true, *client_, Wait(30s)); });
  GroupSnapshotsCheck check = Result(result);
  EXPECT_TRUE(check.enabled);
  EXPECT_EQ(check.exit, std::nullopt);
  EXPECT_THAT(Targets(), ElementsAre(kGroups, kGroupClasses, kGroupContents));
  for (const std::string& line : logs_.lines()) EXPECT_THAT(line, Not(StartsWith("W")));
  EXPECT_THAT(logs_.Grep("CRDs were not found"), IsEmpty());
}

// Upstream waits for the group CRDs as for the others, then only warns, once,
// and runs without groups.
TEST_F(CrdCheckTest, GroupCrdsMissingWarnOnceAfterTheWaitAndTurnGroupsOff) {
  server_.Script(Listed());
  server_.Script(Listed());
  for (int i = 0; i < 5; ++i) server_.Script(NotFound());
  auto result = StartGroups([&] { return StartGroupSnapshots(true, *client_, Wait(1s)); });
  PassPauses({100ms, 250ms, 475ms, 812500us, 1s});
  GroupSnapshotsCheck check = Result(result);
  EXPECT_FALSE(check.enabled);
  EXPECT_EQ(check.exit, std::nullopt);
  EXPECT_THAT(logs_.Grep("\"Failed to list v1 volumegroupsnapshotcontents with error=the server "
                         "could not find the requested resource\""),
              SizeIs(1));
  EXPECT_THAT(logs_.Grep("\"Failed to list v1 volumegroupsnapshots with error="), SizeIs(4));
  auto lines = logs_.Grep(
      "\"VolumeGroupSnapshot CRDs were not found; disabling the VolumeGroupSnapshot feature for "
      "this run. Install the VolumeGroupSnapshot CRDs to use this feature: context deadline "
      "exceeded\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], StartsWith("W"));
}

TEST_F(CrdCheckTest, StopDuringTheGroupWaitExitsZero) {
  auto result = StartGroups([&] { return StartGroupSnapshots(true, *client_, Wait(30s)); });
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start_ + 100ms}, 20s));
  stop_.request_stop();
  GroupSnapshotsCheck check = Result(result);
  EXPECT_EQ(check.exit, 0);
  EXPECT_FALSE(check.enabled);
  EXPECT_THAT(logs_.Grep("Shutdown requested during startup"), SizeIs(1));
  EXPECT_THAT(logs_.Grep("CRDs were not found"), IsEmpty());
}

}  // namespace
}  // namespace snapshot_controller
