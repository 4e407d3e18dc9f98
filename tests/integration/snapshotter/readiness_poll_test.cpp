// Polling a snapshot that is not ready yet (docs/snapshots.md §9.2): its own
// cadence, --retry-interval-start doubling up to 30 s, apart from the error
// backoff. Ours only: upstream polls on its error backoff, which drifts to
// --retry-interval-max (5 min by default, #1282) and carries on from the
// failures before the first answer.
#include <gtest/gtest.h>

#include "tests/integration/snapshotter/snapshot_fixture.h"

namespace snapshot_it {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr char kVolumes[] = "vol-1:1073741824";

class OursOnlyReadinessPollTest : public OursOnlyTest {
 protected:
  // A fault driver with `faults`, a class, a bound PVC, the controller and
  // our sidecar with upstream's default retry intervals but a start of 1 s;
  // returns the VolumeSnapshot it then creates.
  kube::VolumeSnapshot StartWithFaults(const std::string& driver, const std::string& faults) {
    StartFaultDriver(driver, kVolumes);
    WriteFaults(faults);
    CreateBoundPvc("default", "pvc-" + driver, "pv-" + driver, driver, "vol-1");
    CreateSnapshotClass("class-" + driver, driver, "Delete");
    StartSnapshotController();
    EXPECT_NE(StartOurSidecar({"--retry-interval-start=1s", "--retry-interval-max=5m"}), nullptr);
    return CreateVolumeSnapshot("default", "snap-" + driver, "pvc-" + driver, "class-" + driver);
  }
};

// The calls fall at 0, 1, 3, 7, 15 and 31 s after the first: six in a 40 s
// window. The bounds allow one call more or less for scheduling; a cadence
// that does not double (1 s: 40 calls) or one reset by the sidecar's own
// writes (#533: many more) fails. Then the cap: the 7th call comes at 61 s,
// the 8th 30 s later, where a backoff without the cap waits 64 s (upstream's
// v8.7.0 measured here: 6 calls by 40 s, 7 by 70 s, still 7 by 100 s).
TEST_F(OursOnlyReadinessPollTest,
       NeverReadySnapshotIsPolledAtTheReadinessCadenceCappedAt30Seconds) {
  const kube::VolumeSnapshot created =
      StartWithFaults("never-ready", R"({"CreateSnapshot": [{"never_ready": true}]})");
  ASSERT_FALSE(HasFailure());
  const std::string name = DriverSnapshotName(created);
  auto calls = [&] { return DriverSnapshotCounter(name, "create_calls"); };
  ASSERT_TRUE(Eventually([&] { return calls() >= 1; })) << "no CreateSnapshot call";
  const auto window_end = Clock::now() + 40s;

  // The window is the measurement: wait for its end while checking that
  // the snapshot is reported as not ready meanwhile.
  auto snapshot = Await<kube::VolumeSnapshot>(
      "default", "snap-never-ready",
      [](const kube::VolumeSnapshot& s) { return s.status && s.status->ready_to_use; });
  ASSERT_TRUE(snapshot && snapshot->status) << "the VolumeSnapshot has no status";
  EXPECT_EQ(snapshot->status->ready_to_use, false);
  std::this_thread::sleep_until(window_end);
  const int in_window = calls();
  EXPECT_GE(in_window, 5) << "fewer polls than 1, 2, 4, 8, 16 s apart allow in 40 s";
  EXPECT_LE(in_window, 7) << "more polls than 1, 2, 4, 8, 16 s apart allow in 40 s";

  ASSERT_TRUE(Eventually([&] { return calls() >= 7; }, 60s)) << "no 7th poll by 100 s";
  EXPECT_TRUE(Eventually([&] { return calls() >= 8; }, 45s))
      << "no poll within 45 s of the 7th: the cadence is not capped at 30 s";
  auto after = admin_->Get<kube::VolumeSnapshot>("default", "snap-never-ready");
  ASSERT_TRUE(after.ok()) << after.error().message;
  EXPECT_FALSE(Ready(*after));
  EXPECT_TRUE(sidecar().IsRunning());
}

// Five UNAVAILABLE answers raise the error backoff to 1, 2, 4, 8, 16 s; the
// sixth call takes a snapshot that is ready from its third answer on. The
// polls after it start at 1 s (1 + 2 s to ready), where continuing the error
// backoff would wait 32 + 64 s.
TEST_F(OursOnlyReadinessPollTest,
       SnapshotReadyAfterPollsBecomesReadyWithoutWaitingForTheErrorBackoff) {
  const kube::VolumeSnapshot created = StartWithFaults(
      "ready-after",
      R"({"CreateSnapshot": [{"code": "UNAVAILABLE", "times": 5}, {"ready_after": 3}]})");
  ASSERT_FALSE(HasFailure());
  const std::string name = DriverSnapshotName(created);
  ASSERT_TRUE(Eventually([&] { return DriverSnapshotCounter(name, "answers") >= 1; }, 120s))
      << "the driver never answered with a snapshot";
  auto ready = Await<kube::VolumeSnapshot>("default", "snap-ready-after", Ready, 20s);
  ASSERT_TRUE(ready && Ready(*ready))
      << "not ready 20 s after the first answer: the polls followed the error backoff";
  const nlohmann::json record = DriverSnapshotRecord(name);
  EXPECT_EQ(record["ready"], true);
  EXPECT_EQ(record["answers"], 3) << "no poll after it was ready";
  EXPECT_EQ(record["create_calls"], 8) << "5 failures, the create, 2 polls";
}

}  // namespace
}  // namespace snapshot_it
