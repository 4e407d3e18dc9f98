// docs/snapshots.md §3.4 create step 2 and §3.5: which Secret holds the
// credentials - the deletion-secret annotations for create and delete, the
// class's snapshotter-list-secret templates for ListSnapshots - with
// upstream's error texts.
#include "snapshotter/secret_references.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "snapshot/names.h"

namespace snapshotter {
namespace {

kube::VolumeSnapshotContent Annotated(kube::StringMap annotations) {
  kube::VolumeSnapshotContent content;
  content.metadata.name = "content-1";
  content.metadata.annotations = std::move(annotations);
  return content;
}

kube::StringMap ListParameters(std::string name, std::string ns) {
  return {{std::string(snapshot::kListSecretNameKey), std::move(name)},
          {std::string(snapshot::kListSecretNamespaceKey), std::move(ns)}};
}

TEST(DeletionSecretOf, BothAnnotationsNameTheSecret) {
  auto ref = DeletionSecretOf(
      Annotated({{std::string(snapshot::kDeletionSecretNameAnnotation), "creds"},
                 {std::string(snapshot::kDeletionSecretNamespaceAnnotation), "ns"}}));
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  ASSERT_TRUE(ref->has_value());
  EXPECT_EQ(**ref, (kube::SecretReference{.name = "creds", .namespace_ = "ns"}));
}

TEST(DeletionSecretOf, NoneOrOnlyOneAnnotationMeansNoSecret) {
  for (const kube::StringMap& annotations :
       {kube::StringMap{},
        kube::StringMap{{std::string(snapshot::kDeletionSecretNameAnnotation), "creds"}},
        kube::StringMap{{std::string(snapshot::kDeletionSecretNamespaceAnnotation), "ns"}}}) {
    auto ref = DeletionSecretOf(Annotated(annotations));
    ASSERT_TRUE(ref.ok()) << ref.error().message;
    EXPECT_FALSE(ref->has_value());
  }
}

TEST(DeletionSecretOf, AnEmptyValueIsAnError) {
  auto ref = DeletionSecretOf(
      Annotated({{std::string(snapshot::kDeletionSecretNameAnnotation), ""},
                 {std::string(snapshot::kDeletionSecretNamespaceAnnotation), "ns"}}));
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().message,
            "cannot retrieve secrets for snapshot content \"content-1\", err: secret name or "
            "namespace not specified");
}

TEST(ListSecretOf, NoParametersMeansNoSecret) {
  auto ref = ListSecretOf({{"tier", "gold"}}, "content-1");
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  EXPECT_FALSE(ref->has_value());
}

TEST(ListSecretOf, ContentNameTokenIsResolvedInBoth) {
  auto ref = ListSecretOf(
      ListParameters("${volumesnapshotcontent.name}-creds", "ns-$volumesnapshotcontent"),
      "content-1");
  ASSERT_FALSE(ref.ok());  // "$volumesnapshotcontent" names another variable
  EXPECT_EQ(ref.error().message,
            R"(error resolving value "ns-$volumesnapshotcontent": invalid tokens: )"
            R"(["volumesnapshotcontent"])");

  ref = ListSecretOf(
      ListParameters("${volumesnapshotcontent.name}-creds", "${volumesnapshotcontent.name}"),
      "content-1");
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  EXPECT_EQ(**ref, (kube::SecretReference{.name = "content-1-creds", .namespace_ = "content-1"}));
}

TEST(ListSecretOf, TokensOfTheVolumeSnapshotAreUnknownToTheSidecar) {
  auto ref = ListSecretOf(ListParameters("${volumesnapshot.name}", "${volumesnapshot.namespace}"),
                          "content-1");
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().message,
            R"(error resolving value "${volumesnapshot.namespace}": invalid tokens: )"
            R"(["volumesnapshot.namespace"])");
}

TEST(ListSecretOf, ExpansionFollowsGoOsExpand) {
  // A trailing '$' and one before a non-name character stay; "${}" and an
  // unclosed "${" are dropped; several unknown tokens are listed sorted.
  auto ref = ListSecretOf(ListParameters("a$", "ns"), "c");
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().message, R"("a$" is not a valid secret name)");
  ref = ListSecretOf(ListParameters("a${}b", "ns"), "c");
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  EXPECT_EQ((*ref)->name, "ab");
  ref = ListSecretOf(ListParameters("ab${x", "ns"), "c");
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  EXPECT_EQ((*ref)->name, "abx");
  ref = ListSecretOf(ListParameters("$z-${b}-$1", "ns"), "c");
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().message, R"(error resolving value "$z-${b}-$1": invalid tokens: )"
                                 R"(["1" "b" "z"])");
}

TEST(ListSecretOf, HalfSetOrEmptyParametersAreErrors) {
  auto ref = ListSecretOf({{std::string(snapshot::kListSecretNameKey), "creds"}}, "content-1");
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().message,
            "failed to get name and namespace template from params: either name and namespace "
            "for SnapshotterList secrets specified, Both must be specified");
  ref = ListSecretOf(ListParameters("creds", ""), "content-1");
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().message,
            "failed to get name and namespace template from params: SnapshotterList secrets "
            "specified in parameters but value of either namespace or name is empty");
}

TEST(ListSecretOf, InvalidNamesAreErrors) {
  auto ref = ListSecretOf(ListParameters("creds", "Kube_System"), "content-1");
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().message, R"("Kube_System" is not a valid namespace name)");
  ref = ListSecretOf(ListParameters("creds", "${volumesnapshotcontent.name}"), "Content.1");
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().message,
            R"("${volumesnapshotcontent.name}" resolved to "Content.1" which is not a valid )"
            R"(namespace name)");
  ref = ListSecretOf(ListParameters("${volumesnapshotcontent.name}_x", "ns"), "content-1");
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().message,
            R"("${volumesnapshotcontent.name}_x" resolved to "content-1_x" which is not a )"
            R"(valid secret name)");
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
}  // namespace snapshotter
