// docs/snapshots.md §4.3 step 0: the default class of a dynamic
// VolumeSnapshot is the only class marked is-default-class "true" whose
// driver is the source PV's; none or several are errors with upstream's texts.
#include "snapshot_controller/default_snapshot_class.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace snapshot_controller {
namespace {

SnapshotClassPtr Class(std::string name, std::string driver, kube::StringMap annotations) {
  auto snapshot_class = std::make_shared<kube::VolumeSnapshotClass>();
  snapshot_class->metadata.name = std::move(name);
  snapshot_class->metadata.annotations = std::move(annotations);
  snapshot_class->driver = std::move(driver);
  return snapshot_class;
}

const kube::StringMap kDefault = {{std::string(kube::kIsDefaultSnapshotClassAnnotation), "true"}};

struct DefaultClassCase {
  std::string rule;
  std::vector<SnapshotClassPtr> classes;
  std::string chosen = "";  // the class's name, or "" when an error is expected
  std::string error = "";
};

TEST(DefaultSnapshotClassFor, IsTheOnlyDefaultClassOfThePvDriver) {
  const std::vector<DefaultClassCase> cases = {
      {.rule = "no classes at all", .classes = {}, .error = "cannot find default snapshot class"},
      {.rule = "exactly one default of the driver",
       .classes = {Class("plain", "hostpath.csi.k8s.io", {}),
                   Class("gold", "hostpath.csi.k8s.io", kDefault),
                   Class("other-driver", "ebs.csi.aws.com", kDefault)},
       .chosen = "gold"},
      {.rule = "a default of another driver does not count",
       .classes = {Class("other-driver", "ebs.csi.aws.com", kDefault)},
       .error = "cannot find default snapshot class"},
      {.rule = "the annotation must be exactly \"true\"",
       .classes = {Class("upper", "hostpath.csi.k8s.io",
                         {{std::string(kube::kIsDefaultSnapshotClassAnnotation), "True"}}),
                   Class("empty", "hostpath.csi.k8s.io",
                         {{std::string(kube::kIsDefaultSnapshotClassAnnotation), ""}})},
       .error = "cannot find default snapshot class"},
      {.rule = "several defaults of the driver are counted",
       .classes = {Class("a", "hostpath.csi.k8s.io", kDefault),
                   Class("b", "hostpath.csi.k8s.io", kDefault),
                   Class("c", "hostpath.csi.k8s.io", kDefault),
                   Class("d", "ebs.csi.aws.com", kDefault)},
       .error = "3 default snapshot classes were found"},
  };
  for (const DefaultClassCase& c : cases) {
    SCOPED_TRACE(c.rule);
    auto chosen = DefaultSnapshotClassFor(c.classes, "hostpath.csi.k8s.io");
    if (!c.error.empty()) {
      ASSERT_FALSE(chosen.ok());
      EXPECT_EQ(chosen.error().message, c.error);
      continue;
    }
    ASSERT_TRUE(chosen.ok()) << chosen.error().message;
    EXPECT_EQ((*chosen)->metadata.name, c.chosen);
  }
}

}  // namespace
}  // namespace snapshot_controller
