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

}  // namespace
}  // namespace snapshotter
