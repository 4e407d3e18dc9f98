// docs/snapshots.md §3.7 and §9.10: the sidecar's metric names and labels.
#include "snapshotter/sidecar_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "content_controller_fakes.h"

namespace snapshotter {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kCreate[] = "/csi.v1.Controller/CreateSnapshot";

// §9.10: the real driver name once GetPluginInfo answered.
TEST(SidecarMetricsTest, DriverNameIsUnknownUntilTheDriverNamedItself) {
  SidecarMetrics m;
  csi::MetricsHook hook = m.CsiHook();
  hook({"/csi.v1.Identity/GetPluginInfo", 0, 0.2, false});
  m.SetDriverName("hostpath.csi.k8s.io");
  hook({kCreate, 4, 0.3, false});
  std::string text = m.registry().Expose();
  EXPECT_THAT(text, HasSubstr("csi_sidecar_operations_seconds_count{driver_name=\"unknown-driver\","
                              "grpc_status_code=\"OK\",method_name=\"/csi.v1.Identity/"
                              "GetPluginInfo\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("csi_sidecar_operations_seconds_bucket{driver_name=\"hostpath.csi."
                              "k8s.io\",grpc_status_code=\"DeadlineExceeded\",method_name=\"/"
                              "csi.v1.Controller/CreateSnapshot\",le=\"0.5\"} 1\n"));
}

// Upstream's snapshotter has no migration drivers: never the `migrated` label.
TEST(SidecarMetricsTest, MigrationDriverNamesGetNoMigratedLabel) {
  SidecarMetrics m;
  m.SetDriverName("ebs.csi.aws.com");
  m.CsiHook()({kCreate, 0, 0.01, true});
  std::string text = m.registry().Expose();
  EXPECT_THAT(text, HasSubstr("csi_sidecar_operations_seconds_count{driver_name=\"ebs.csi.aws."
                              "com\",grpc_status_code=\"OK\",method_name=\"/csi.v1.Controller/"
                              "CreateSnapshot\"} 1\n"));
  EXPECT_THAT(text, Not(HasSubstr("migrated")));
}

TEST(SidecarMetricsTest, ContentQueueSeriesExistFromTheStart) {
  SidecarMetrics m;
  std::string text = m.registry().Expose();
  EXPECT_THAT(text, HasSubstr("workqueue_depth{name=\"csi-snapshotter-content\"} 0\n"));
  EXPECT_THAT(text, HasSubstr("workqueue_adds_total{name=\"csi-snapshotter-content\"} 0\n"));
  m.content_queue().OnAdd();
  EXPECT_THAT(m.registry().Expose(),
              HasSubstr("workqueue_adds_total{name=\"csi-snapshotter-content\"} 1\n"));
}

TEST(SidecarMetricsTest, QueueGaugesAreReadWhileTheControllerIsWatched) {
  SidecarMetrics m;
  base::FakeClock clock;
  testing::ScriptedContentHandler handler(clock);
  testsupport::FakeListerWatcher<kube::VolumeSnapshotContent> contents;
  testsupport::FakeListerWatcher<kube::VolumeSnapshotClass> classes;
  kube::InformerSet informers(kube::ReflectorOptions{}, clock);
  informers.UseSource(contents);
  informers.UseSource(classes);
  ContentController controller(std::string(testing::kSnapshotDriver), handler, informers, {}, clock,
                               &m.content_queue());
  {
    component::ScrapeRegistrations gauges = m.WatchController(controller);
    EXPECT_THAT(
        m.registry().Expose(),
        HasSubstr("workqueue_unfinished_work_seconds{name=\"csi-snapshotter-content\"} 0\n"));
  }
  EXPECT_THAT(m.registry().Expose(), Not(HasSubstr("workqueue_unfinished_work_seconds{name=")));
}

// Upstream creates the group queue only when group snapshots run.
TEST(SidecarMetricsTest, GroupQueueSeriesAppearWhenGroupsRun) {
  SidecarMetrics m;
  EXPECT_THAT(m.registry().Expose(), Not(HasSubstr("csi-snapshotter-groupsnapshotcontent")));
  m.group_content_queue().OnAdd();
  EXPECT_THAT(m.registry().Expose(),
              HasSubstr("workqueue_adds_total{name=\"csi-snapshotter-groupsnapshotcontent\"} 1\n"));
  base::FakeClock clock;
  testing::ScriptedContentHandler handler(clock);
  testing::ScriptedContentHandlerOf<kube::VolumeGroupSnapshotContent> group_handler(clock);
  testsupport::FakeListerWatcher<kube::VolumeSnapshotContent> contents;
  testsupport::FakeListerWatcher<kube::VolumeSnapshotClass> classes;
  testsupport::FakeListerWatcher<kube::VolumeGroupSnapshotContent> group_contents;
  testsupport::FakeListerWatcher<kube::VolumeGroupSnapshotClass> group_classes;
  kube::InformerSet informers(kube::ReflectorOptions{}, clock);
  informers.UseSource(contents);
  informers.UseSource(classes);
  informers.UseSource(group_contents);
  informers.UseSource(group_classes);
  ContentController controller(std::string(testing::kSnapshotDriver), handler, informers, {}, clock,
                               &m.content_queue());
  GroupContentController groups(std::string(testing::kSnapshotDriver), group_handler, informers, {},
                                clock, &m.group_content_queue());
  component::ScrapeRegistrations gauges = m.WatchController(controller, &groups);
  EXPECT_THAT(m.registry().Expose(),
              HasSubstr("workqueue_unfinished_work_seconds{name=\"csi-snapshotter-"
                        "groupsnapshotcontent\"} 0\n"));
}

TEST(SidecarMetricsTest, LeaderElectionAndProcessMetricsArePresent) {
  SidecarMetrics m;
  std::string text = m.registry().Expose();
  EXPECT_THAT(text, HasSubstr("leader_election_master_status{name=\"\"} 0\n"));
  EXPECT_THAT(text, HasSubstr("leader_election_slowpath_total{name=\"\"} 0\n"));
  EXPECT_THAT(text, HasSubstr("process_start_time_seconds "));
}

}  // namespace
}  // namespace snapshotter
