// docs/snapshots.md §3.5, §4.3 createSnapshotContent and §4.7: the Secret
// the controller resolves from a class's snapshotter-secret templates for a
// new (group) content, with upstream's error texts.
#include "snapshot_controller/secret_references.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "snapshot/names.h"

namespace snapshot_controller {
namespace {

kube::StringMap ListParameters(std::string name, std::string ns) {
  return {{std::string(snapshot::kListSecretNameKey), std::move(name)},
          {std::string(snapshot::kListSecretNamespaceKey), std::move(ns)}};
}

kube::VolumeSnapshot SnapshotNamed(std::string ns, std::string name) {
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.namespace_ = std::move(ns);
  snapshot.metadata.name = std::move(name);
  return snapshot;
}

// §3.5: the controller's snapshotter-secret templates. Each row is a pair of
// templates (nullopt = parameter absent) and either the Secret or the error.
struct SnapshotterSecretCase {
  std::string rule;
  std::optional<std::string> name_template = {};
  std::optional<std::string> namespace_template = {};
  std::optional<kube::SecretReference> secret = {};  // nullopt with error "" = no Secret
  std::string error = "";
};

TEST(SnapshotterSecretOf, FollowsTheTemplateRulesOfTheController) {
  const std::string failed = "failed to get name and namespace template from params: ";
  const std::vector<SnapshotterSecretCase> cases = {
      {.rule = "neither parameter: no Secret",
       .name_template = {},
       .namespace_template = {},
       .secret = {}},
      {.rule = "plain names",
       .name_template = "creds",
       .namespace_template = "kube-system",
       .secret = kube::SecretReference{.name = "creds", .namespace_ = "kube-system"}},
      {.rule = "all three tokens in the name, two in the namespace",
       .name_template =
           "${volumesnapshot.namespace}.${volumesnapshot.name}.${volumesnapshotcontent.name}",
       .namespace_template = "${volumesnapshot.namespace}",
       .secret =
           kube::SecretReference{.name = "team-a.snap-1.snapcontent-42", .namespace_ = "team-a"}},
      {.rule = "content name in the namespace",
       .name_template = "creds",
       .namespace_template = "$volumesnapshotcontent.name",
       .error = R"(error resolving value "$volumesnapshotcontent.name": invalid tokens: )"
                R"(["volumesnapshotcontent"])"},
      {.rule = "content name token in the namespace",
       .name_template = "creds",
       .namespace_template = "${volumesnapshotcontent.name}",
       .secret = kube::SecretReference{.name = "creds", .namespace_ = "snapcontent-42"}},
      {.rule = "the snapshot's name is not allowed in the namespace",
       .name_template = "creds",
       .namespace_template = "${volumesnapshot.name}",
       .error = R"(error resolving value "${volumesnapshot.name}": invalid tokens: )"
                R"(["volumesnapshot.name"])"},
      {.rule = "unknown tokens are listed sorted",
       .name_template = "${pvc.name}-${volumesnapshot.uid}",
       .namespace_template = "ns",
       .error = R"(error resolving value "${pvc.name}-${volumesnapshot.uid}": invalid tokens: )"
                R"(["pvc.name" "volumesnapshot.uid"])"},
      {.rule = "name without namespace",
       .name_template = "creds",
       .namespace_template = {},
       .error = failed +
                "either name and namespace for Snapshotter secrets specified, Both must be "
                "specified"},
      {.rule = "namespace without name",
       .name_template = {},
       .namespace_template = "ns",
       .error = failed +
                "either name and namespace for Snapshotter secrets specified, Both must be "
                "specified"},
      {.rule = "empty name",
       .name_template = "",
       .namespace_template = "ns",
       .error = failed +
                "Snapshotter secrets specified in parameters but value of either namespace or "
                "name is empty"},
      {.rule = "empty namespace",
       .name_template = "creds",
       .namespace_template = "",
       .error = failed +
                "Snapshotter secrets specified in parameters but value of either namespace or "
                "name is empty"},
      {.rule = "namespace must be a DNS-1123 label",
       .name_template = "creds",
       .namespace_template = "a.b",
       .error = R"("a.b" is not a valid namespace name)"},
      {.rule = "resolved name must be a DNS-1123 subdomain",
       .name_template = "${volumesnapshot.name}_creds",
       .namespace_template = "ns",
       .error = R"("${volumesnapshot.name}_creds" resolved to "snap-1_creds" which is not a )"
                R"(valid secret name)"},
  };
  const kube::VolumeSnapshot snapshot = SnapshotNamed("team-a", "snap-1");
  for (const SnapshotterSecretCase& c : cases) {
    SCOPED_TRACE(c.rule);
    kube::StringMap parameters = {{"tier", "gold"}};
    if (c.name_template)
      parameters[std::string(snapshot::kSnapshotterSecretNameKey)] = *c.name_template;
    if (c.namespace_template) {
      parameters[std::string(snapshot::kSnapshotterSecretNamespaceKey)] = *c.namespace_template;
    }
    auto ref = SnapshotterSecretOf(parameters, "snapcontent-42", snapshot);
    if (!c.error.empty()) {
      ASSERT_FALSE(ref.ok());
      EXPECT_EQ(ref.error().message, c.error);
      continue;
    }
    ASSERT_TRUE(ref.ok()) << ref.error().message;
    EXPECT_EQ(*ref, c.secret);
  }
}

TEST(SnapshotterSecretOf, ListSecretParametersAreNotTheSnapshotterSecret) {
  auto ref = SnapshotterSecretOf(ListParameters("creds", "ns"), "snapcontent-42",
                                 SnapshotNamed("team-a", "snap-1"));
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  EXPECT_FALSE(ref->has_value());
}

// §3.5, §4.7: the group's Secret, with the group kinds' tokens; without the
// group snapshot (members) only the group content's name is known.
TEST(GroupSnapshotterSecretOf, GroupTokensResolveAndOnlyTheContentsWithoutTheGroup) {
  kube::VolumeGroupSnapshot group;
  group.metadata.namespace_ = "team-a";
  group.metadata.name = "group-1";
  const kube::StringMap parameters = {
      {std::string(snapshot::kGroupSnapshotterSecretNameKey),
       "${volumegroupsnapshot.name}.${volumegroupsnapshotcontent.name}"},
      {std::string(snapshot::kGroupSnapshotterSecretNamespaceKey),
       "${volumegroupsnapshot.namespace}"}};

  auto ref = GroupSnapshotterSecretOf(parameters, "groupsnapcontent-42", &group);
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  EXPECT_EQ(*ref,
            (kube::SecretReference{.name = "group-1.groupsnapcontent-42", .namespace_ = "team-a"}));

  auto without_group = GroupSnapshotterSecretOf(parameters, "groupsnapcontent-42", nullptr);
  ASSERT_FALSE(without_group.ok());
  EXPECT_EQ(without_group.error().message,
            R"(error resolving value "${volumegroupsnapshot.namespace}": invalid tokens: )"
            R"(["volumegroupsnapshot.namespace"])");
}

TEST(GroupSnapshotterSecretOf, HalfSetIsAnErrorNamingGroupSnapshotter) {
  auto ref =
      GroupSnapshotterSecretOf({{std::string(snapshot::kGroupSnapshotterSecretNameKey), "creds"}},
                               "groupsnapcontent-42", nullptr);
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().message,
            "failed to get name and namespace template from params: either name and namespace "
            "for GroupSnapshotter secrets specified, Both must be specified");
}

}  // namespace
}  // namespace snapshot_controller
