#include "kube/api/metadata_patch.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace kube {
namespace {

nlohmann::json Ops(const JsonPatch& patch) { return nlohmann::json::parse(patch.Serialize()); }

TEST(MetadataPatch, AddFinalizerGuardsAnAbsentOrEmptyListAndAppendsOtherwise) {
  ObjectMeta absent;
  JsonPatch to_absent;
  AddFinalizerOps(absent, "f", to_absent);
  EXPECT_EQ(Ops(to_absent), nlohmann::json::parse(R"([
      {"op": "test", "path": "/metadata/finalizers", "value": null},
      {"op": "add", "path": "/metadata/finalizers", "value": ["f"]}])"));

  ObjectMeta empty;
  empty.has_finalizers_field = true;
  JsonPatch to_empty;
  AddFinalizerOps(empty, "f", to_empty);
  EXPECT_EQ(Ops(to_empty), nlohmann::json::parse(R"([
      {"op": "test", "path": "/metadata/finalizers", "value": []},
      {"op": "replace", "path": "/metadata/finalizers", "value": ["f"]}])"));

  ObjectMeta other;
  other.finalizers = {"other"};
  other.has_finalizers_field = true;
  JsonPatch to_other;
  AddFinalizerOps(other, "f", to_other);
  EXPECT_EQ(
      Ops(to_other),
      nlohmann::json::parse(R"([{"op": "add", "path": "/metadata/finalizers/-", "value": "f"}])"));
}

TEST(MetadataPatch, SetAnnotationEscapesTheKeyAndReplacesAnExistingValue) {
  ObjectMeta meta;
  meta.annotations = {{"a/b", "old"}};
  JsonPatch replace;
  SetAnnotationOps(meta, "a/b", "new", replace);
  EXPECT_EQ(Ops(replace), nlohmann::json::parse(
                              R"([{"op": "replace", "path": "/metadata/annotations/a~1b",
                                   "value": "new"}])"));
}

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

TEST(MetadataPatch, RemoveFinalizerMergePatchSendsTheRestOrNull) {
  ObjectMeta meta;
  meta.finalizers = {"x", "f"};
  EXPECT_EQ(RemoveFinalizerMergePatch(meta, "f"), R"({"metadata":{"finalizers":["x"]}})");
  meta.finalizers = {"f"};
  EXPECT_EQ(RemoveFinalizerMergePatch(meta, "f"), R"({"metadata":{"finalizers":null}})");
}

}  // namespace
}  // namespace kube
