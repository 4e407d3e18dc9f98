// The snapshot-controller's pairings: each test runs once per pairing of a
// controller (ours or upstream's) with a csi-snapshotter sidecar (ours or
// upstream's), so ours is shown to be a drop-in next to either sidecar and
// upstream+upstream is the reference the same checks hold for. Built on
// SnapshotTest (tests/integration/snapshotter/snapshot_fixture.h): one control
// plane per suite, the four pairings' objects named apart.
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kube/api/metadata_patch.h"
#include "tests/integration/snapshotter/snapshot_fixture.h"

namespace snapshot_it {

// The finalizer the controller keeps on a snapshot's source claim while the
// snapshot is not ready (docs/snapshots.md §4.3 step 1).
inline constexpr char kPvcAsSourceFinalizer[] =
    "snapshot.storage.kubernetes.io/pvc-as-source-protection";

using kube::HasFinalizer;

struct Pairing {
  std::string name;  // the test name's suffix: OursOurs, OursControllerUpstreamSidecar, ...
  std::string tag;   // made part of object names: ours-ours, ours-up, ...
  ControllerUnderTest controller;
  SidecarUnderTest sidecar;

  friend void PrintTo(const Pairing& pairing, std::ostream* out) { *out << pairing.name; }
};

// Ours+ours, ours with upstream's sidecar, upstream's with ours, and the
// reference upstream+upstream.
std::vector<Pairing> AllPairings();

class ControllerPairTest : public SnapshotTest, public ::testing::WithParamInterface<Pairing> {
 protected:
  // The pairing's controller and sidecar, as StartController and
  // StartSidecar start them; null (and the test failed) when one cannot.
  testsupport::Process* StartControllerUnderTest(std::vector<std::string> extra_args = {}) {
    return StartControllerOf(GetParam().controller, std::move(extra_args));
  }
  testsupport::Process* StartSidecarUnderTest(std::vector<std::string> extra_args = {}) {
    return StartSidecarOf(GetParam().sidecar, std::move(extra_args));
  }
  // Whether the controller under test is ours (for the wording that differs
  // by design, docs/snapshots.md §9).
  bool OurControllerUnderTest() const { return GetParam().controller.name == "Ours"; }

  // A VolumeSnapshotClass annotated as its driver's default
  // (docs/snapshots.md §2); fails the test if the server refuses.
  void CreateDefaultSnapshotClass(const std::string& name, const std::string& driver,
                                  const std::string& deletion_policy);

  // The names of one test's objects, made the pairing's own.
  Names NamesFor(const std::string& base) const { return OwnNames(base, GetParam().tag); }
  std::string Unique(const std::string& base) const { return OwnName(base, GetParam().tag); }
};

// Runs every test of `suite` (a ControllerPairTest) once per pairing.
#define INSTANTIATE_CONTROLLER_PAIRINGS(suite)             \
  INSTANTIATE_TEST_SUITE_P(                                \
      Pairings, suite, ::testing::ValuesIn(AllPairings()), \
      [](const ::testing::TestParamInfo<Pairing>& info) { return info.param.name; })

}  // namespace snapshot_it
