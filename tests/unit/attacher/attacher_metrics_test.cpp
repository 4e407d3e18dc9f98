// csi_sidecar_operations_seconds labels (docs/attacher.md §4, §7 row 2).
#include "attacher/attacher_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace attacher {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kPublish[] = "/csi.v1.Controller/ControllerPublishVolume";

TEST(AttacherMetricsTest, DriverNameIsUnknownUntilTheDriverNamedItself) {
  AttacherMetrics m;
  csi::MetricsHook hook = m.CsiHook();
  hook({"/csi.v1.Identity/GetPluginInfo", 0, 0.2, false});
  m.SetDriverName("hostpath.csi.k8s.io");
  hook({kPublish, 4, 0.3, false});
  std::string text = m.registry().Expose();
  EXPECT_THAT(text, HasSubstr("csi_sidecar_operations_seconds_count{driver_name=\"unknown-driver\","
                              "grpc_status_code=\"OK\",method_name=\"/csi.v1.Identity/"
                              "GetPluginInfo\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("csi_sidecar_operations_seconds_bucket{driver_name=\"hostpath.csi."
                              "k8s.io\",grpc_status_code=\"DeadlineExceeded\",method_name=\"/"
                              "csi.v1.Controller/ControllerPublishVolume\",le=\"0.5\"} 1\n"));
  EXPECT_THAT(text, Not(HasSubstr("migrated")));
}

TEST(AttacherMetricsTest, MigrationDriversGetTheMigratedLabel) {
  AttacherMetrics m;
  m.SetDriverName("ebs.csi.aws.com");
  m.CsiHook()({kPublish, 0, 0.01, true});
  EXPECT_THAT(m.registry().Expose(),
              HasSubstr("csi_sidecar_operations_seconds_count{driver_name=\"ebs.csi.aws.com\","
                        "grpc_status_code=\"OK\",method_name=\"/csi.v1.Controller/"
                        "ControllerPublishVolume\",migrated=\"true\"} 1\n"));
}

TEST(AttacherMetricsTest, LeaderElectionMetricsStartAtZeroWithEmptyName) {
  AttacherMetrics m;
  std::string text = m.registry().Expose();
  EXPECT_THAT(text, HasSubstr("leader_election_master_status{name=\"\"} 0\n"));
  EXPECT_THAT(text, HasSubstr("leader_election_slowpath_total{name=\"\"} 0\n"));
  m.leader_election().master_status.Set(1);
  EXPECT_THAT(m.registry().Expose(), HasSubstr("leader_election_master_status{name=\"\"} 1\n"));
}

}  // namespace
}  // namespace attacher
