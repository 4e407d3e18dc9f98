#include "kube/api/metadata_patch.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kube {
namespace {

nlohmann::json Ops(const JsonPatch& patch) { return nlohmann::json::parse(patch.Serialize()); }

ObjectMeta WithFinalizers(std::vector<InternedString> finalizers) {
  ObjectMeta meta;
  meta.finalizers = std::move(finalizers);
  meta.has_finalizers_field = true;
  return meta;
}

ObjectMeta WithAnnotations(StringMap annotations) {
  ObjectMeta meta;
  meta.annotations = std::move(annotations);
  return meta;
}

// One builder call on a cached copy and the exact JSON Patch it must produce.
struct OpsCase {
  std::string name;
  ObjectMeta cached;
  std::string want;  // the JSON Patch body
};

class AddFinalizer : public ::testing::TestWithParam<OpsCase> {};

TEST_P(AddFinalizer, Ops) {
  JsonPatch patch;
  AddFinalizerOps(GetParam().cached, "f", patch);
  EXPECT_EQ(Ops(patch), nlohmann::json::parse(GetParam().want));
}

INSTANTIATE_TEST_SUITE_P(
    MetadataPatch, AddFinalizer,
    ::testing::Values(
        OpsCase{"AbsentListIsCreatedGuardedByTestNull", ObjectMeta{},
                R"([{"op": "test", "path": "/metadata/finalizers", "value": null},
                    {"op": "add", "path": "/metadata/finalizers", "value": ["f"]}])"},
        OpsCase{"EmptyListIsTestedAndAppendedTo", WithFinalizers({}),
                R"([{"op": "test", "path": "/metadata/finalizers", "value": []},
                    {"op": "add", "path": "/metadata/finalizers/-", "value": "f"}])"},
        // The cached list is the only way to test that "f" is not in it yet.
        OpsCase{"OtherFinalizersAreTestedAsCachedAndAppendedTo", WithFinalizers({"a", "b"}),
                R"([{"op": "test", "path": "/metadata/finalizers", "value": ["a", "b"]},
                    {"op": "add", "path": "/metadata/finalizers/-", "value": "f"}])"},
        OpsCase{"PresentFinalizerNeedsNoOps", WithFinalizers({"a", "f"}), "[]"},
        // Annotations are no business of a finalizer patch.
        OpsCase{"AnnotationsAreNotTested", WithAnnotations({{"x", "y"}}),
                R"([{"op": "test", "path": "/metadata/finalizers", "value": null},
                    {"op": "add", "path": "/metadata/finalizers", "value": ["f"]}])"}),
    [](const auto& info) { return info.param.name; });

class SetAnnotation : public ::testing::TestWithParam<OpsCase> {};

TEST_P(SetAnnotation, Ops) {
  JsonPatch patch;
  SetAnnotationOps(GetParam().cached, "k/n", "v", patch);
  EXPECT_EQ(Ops(patch), nlohmann::json::parse(GetParam().want));
}

INSTANTIATE_TEST_SUITE_P(
    MetadataPatch, SetAnnotation,
    ::testing::Values(
        OpsCase{"AbsentMapIsCreatedGuardedByTestNull", ObjectMeta{},
                R"([{"op": "test", "path": "/metadata/annotations", "value": null},
                    {"op": "add", "path": "/metadata/annotations", "value": {"k/n": "v"}}])"},
        // Other writers' keys are neither tested nor touched.
        OpsCase{"MissingKeyIsAddedAloneUntested", WithAnnotations({{"other", "x"}}),
                R"([{"op": "add", "path": "/metadata/annotations/k~1n", "value": "v"}])"},
        // `add` replaces an existing member and, unlike `replace`, does not
        // depend on the key still being there.
        OpsCase{"OtherValueIsOverwrittenWithAddUntested",
                WithAnnotations({{"other", "x"}, {"k/n", "old"}}),
                R"([{"op": "add", "path": "/metadata/annotations/k~1n", "value": "v"}])"},
        OpsCase{"SameValueNeedsNoOps", WithAnnotations({{"k/n", "v"}}), "[]"},
        OpsCase{"FinalizersAreNotTested", WithFinalizers({"a"}),
                R"([{"op": "test", "path": "/metadata/annotations", "value": null},
                    {"op": "add", "path": "/metadata/annotations", "value": {"k/n": "v"}}])"}),
    [](const auto& info) { return info.param.name; });

TEST(MetadataPatch, RemoveAnnotationTestsItsValueOrIsEmptyWhenAbsent) {
  ObjectMeta meta;
  meta.annotations = {{"a/b", "yes"}, {"other", "x"}};
  EXPECT_EQ(Ops(RemoveAnnotationPatch(meta, "a/b")), nlohmann::json::parse(R"([
      {"op": "test", "path": "/metadata/annotations/a~1b", "value": "yes"},
      {"op": "remove", "path": "/metadata/annotations/a~1b"}])"));
  EXPECT_TRUE(RemoveAnnotationPatch(meta, "missing").empty());
}

TEST(MetadataPatch, RemoveFinalizerTestsItsIndexOrIsEmptyWhenAbsent) {
  ObjectMeta meta;
  meta.finalizers = {"x", "f"};
  EXPECT_EQ(Ops(RemoveFinalizerPatch(meta, "f")), nlohmann::json::parse(R"([
      {"op": "test", "path": "/metadata/finalizers/1", "value": "f"},
      {"op": "remove", "path": "/metadata/finalizers/1"}])"));
  EXPECT_TRUE(RemoveFinalizerPatch(meta, "missing").empty());
}

TEST(MetadataPatch, RemoveFinalizerOpsOfSeveralFinalizersTestEachAtItsIndexAfterTheOnesBefore) {
  ObjectMeta meta;
  meta.finalizers = {"a", "x", "b"};
  JsonPatch patch;
  RemoveFinalizerOps(meta, "a", patch);
  RemoveFinalizerOps(meta, "missing", patch);
  RemoveFinalizerOps(meta, "b", patch);
  // The ops apply in order: once "a" is gone, "b" is at index 1.
  EXPECT_EQ(Ops(patch), nlohmann::json::parse(R"([
      {"op": "test", "path": "/metadata/finalizers/0", "value": "a"},
      {"op": "remove", "path": "/metadata/finalizers/0"},
      {"op": "test", "path": "/metadata/finalizers/1", "value": "b"},
      {"op": "remove", "path": "/metadata/finalizers/1"}])"));
  EXPECT_EQ(meta.finalizers, std::vector<InternedString>{"x"});
}

}  // namespace
}  // namespace kube
