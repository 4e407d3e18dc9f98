// Runs the real csi-attacher binary, as the RBAC-limited ServiceAccount of
// deploy/kubernetes/csi-attacher/rbac.yaml, against a real control plane and a CSI driver
// process (the Kubernetes e2e mock driver, or our fault-injecting driver for
// failures a real driver will not produce). One control plane per suite; a
// driver and an attacher per test.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/client/client.h"
#include "tests/support/control_plane.h"
#include "tests/support/process.h"
#include "tests/support/test_objects.h"

namespace attacher_it {

inline bool Attached(const kube::VolumeAttachment& va) { return va.status.attached; }
inline bool HasAttachError(const kube::VolumeAttachment& va) {
  return va.status.attach_error.has_value();
}

class AttacherTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { StartControlPlane({}); }
  static void TearDownTestSuite();
  // For suites that need a control plane set up differently (e.g. other RBAC).
  static void StartControlPlane(testsupport::ControlPlaneOptions options);
  void SetUp() override;
  void TearDown() override;

  // Starts the e2e mock driver named `driver` (its node ID is its name) with
  // `volumes` created volumes (IDs 4, 5, ...).
  void StartMockDriver(const std::string& driver, int volumes, bool attach = true);
  // Starts tests/fault_csi_driver with extra flags; faults go to fault_dir().
  void StartFaultDriver(const std::string& driver, const std::string& node_id,
                        std::vector<std::string> extra_args = {});
  void StartAttacher(std::vector<std::string> extra_args = {});
  // What StartAttacher runs: this build's csi-attacher, or (overridden) a
  // launcher that runs it from its image root.
  virtual std::string AttacherBinary() const { return ATTACHER_BIN; }

  void CreateCsiNode(const std::string& name, const std::string& driver,
                     const std::string& node_id);
  void CreatePv(kube::PersistentVolume pv);
  void CreateVa(const std::string& name, const std::string& driver, const std::string& pv,
                const std::string& node);
  void WriteFaults(const std::string& json);

  // The fault driver's state file ({} while it is missing or half written).
  nlohmann::json DriverState() const;
  // A per-volume counter of that state ("publish_calls", "attaches", ...).
  int VolumeCounter(const std::string& volume, const std::string& counter) const;
  // Polls until VolumeCounter(volume, counter) >= at_least.
  bool AwaitCounter(const std::string& volume, const std::string& counter, int at_least,
                    std::chrono::seconds timeout = std::chrono::seconds(60)) const;

  // Polls the VA (as admin) until `done` holds or the timeout passes; returns
  // the last version seen (nullopt if it never existed / is gone).
  std::optional<kube::VolumeAttachment> AwaitVa(
      const std::string& name, const std::function<bool(const kube::VolumeAttachment&)>& done,
      std::chrono::seconds timeout = std::chrono::seconds(60));
  bool AwaitVaGone(const std::string& name,
                   std::chrono::seconds timeout = std::chrono::seconds(60));
  bool AwaitPvGone(const std::string& name,
                   std::chrono::seconds timeout = std::chrono::seconds(60));

  std::string AttacherLog() const;
  const std::string& socket() const { return socket_; }
  const std::string& work_dir() const { return work_dir_; }
  std::string fault_dir() const { return work_dir_ + "/faults"; }
  std::string state_file() const { return work_dir_ + "/driver-state.json"; }
  std::string termination_log() const { return work_dir_ + "/termination-log"; }

  static inline testsupport::ControlPlane* plane_ = nullptr;
  static inline kube::Client* admin_ = nullptr;

  std::string work_dir_;
  std::string socket_;
  std::unique_ptr<testsupport::Process> driver_;
  std::unique_ptr<testsupport::Process> attacher_;
};

using kube::testobjects::CsiPv;

// How often `needle` occurs in `text` (e.g. a log line in AttacherLog()).
int CountOccurrences(const std::string& text, std::string_view needle);

// Whether the e2e mock driver reports `volume_id` as published to `node_id`
// (it records that in the volume's context; its ListVolumes status does not).
bool MockDriverHasPublished(const std::string& socket, const std::string& volume_id,
                            const std::string& node_id);

}  // namespace attacher_it
