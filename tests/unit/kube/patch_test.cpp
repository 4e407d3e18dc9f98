#include <gtest/gtest.h>

#include "kube/api/json_patch.h"
#include "kube/api/merge_patch.h"

namespace kube {
namespace {

using nlohmann::json;

TEST(EscapePointer, EscapesTildeBeforeSlash) {
  EXPECT_EQ(EscapePointer("csi.alpha.kubernetes.io/node-id"), "csi.alpha.kubernetes.io~1node-id");
  EXPECT_EQ(EscapePointer("a~b/c"), "a~0b~1c");
  EXPECT_EQ(EscapePointer("~1"), "~01");
  EXPECT_EQ(EscapePointer("plain"), "plain");
}

TEST(JsonPatch, AddsFinalizerToAbsentListGuardedByTestNull) {
  JsonPatch patch;
  patch.Test("/metadata/finalizers", nullptr)
      .Add("/metadata/finalizers", json::array({"external-attacher/ebs-csi-aws-com"}));
  EXPECT_EQ(
      patch.Serialize(),
      R"([{"op":"test","path":"/metadata/finalizers","value":null},)"
      R"({"op":"add","path":"/metadata/finalizers","value":["external-attacher/ebs-csi-aws-com"]}])");
}

TEST(JsonPatch, ReplaceEmptyListAndRemoveByIndex) {
  JsonPatch replace;
  replace.Test("/metadata/finalizers", json::array())
      .Replace("/metadata/finalizers", json::array({"f"}));
  EXPECT_EQ(json::parse(replace.Serialize()), json::parse(R"([
      {"op": "test", "path": "/metadata/finalizers", "value": []},
      {"op": "replace", "path": "/metadata/finalizers", "value": ["f"]}])"));

  JsonPatch remove;
  remove.Test("/metadata/finalizers/1", "f").Remove("/metadata/finalizers/1");
  EXPECT_EQ(remove.Serialize(), R"([{"op":"test","path":"/metadata/finalizers/1","value":"f"},)"
                                R"({"op":"remove","path":"/metadata/finalizers/1"}])");
}

TEST(JsonPatch, EscapedAnnotationKeyInPath) {
  JsonPatch patch;
  patch.Add("/metadata/annotations/" + EscapePointer("csi.alpha.kubernetes.io/node-id"), "node-1");
  EXPECT_EQ(patch.Serialize(),
            R"([{"op":"add","path":"/metadata/annotations/csi.alpha.kubernetes.io~1node-id",)"
            R"("value":"node-1"}])");
}

TEST(JsonPatch, EmptyPatchIsAnEmptyArray) {
  JsonPatch patch;
  EXPECT_TRUE(patch.empty());
  EXPECT_EQ(patch.Serialize(), "[]");
  patch.Remove("/a");
  EXPECT_FALSE(patch.empty());
}

TEST(JsonPatch, ContentType) { EXPECT_EQ(kJsonPatchContentType, "application/json-patch+json"); }

TEST(MergePatch, ContentType) { EXPECT_EQ(kMergePatchContentType, "application/merge-patch+json"); }

TEST(MergePatch, EqualDocumentsGiveEmptyPatch) {
  json doc = json::parse(R"({"a": 1, "b": {"c": [1, 2]}})");
  EXPECT_EQ(CreateMergePatch(doc, doc), json::object());
}

TEST(MergePatch, AddedAndChangedMembersAreSet) {
  EXPECT_EQ(CreateMergePatch(json::parse(R"({"a": 1, "b": "x"})"),
                             json::parse(R"({"a": 2, "b": "x", "c": true})")),
            json::parse(R"({"a": 2, "c": true})"));
}

TEST(MergePatch, RemovedMembersBecomeNull) {
  EXPECT_EQ(CreateMergePatch(json::parse(R"({"a": 1, "b": {"c": 1}})"), json::parse(R"({})")),
            json::parse(R"({"a": null, "b": null})"));
}

TEST(MergePatch, NestedObjectsAreDiffedRecursively) {
  EXPECT_EQ(CreateMergePatch(
                json::parse(R"({"metadata": {"name": "n", "annotations": {"x": "1", "y": "2"}}})"),
                json::parse(R"({"metadata": {"name": "n", "annotations": {"x": "1", "z": "3"}}})")),
            json::parse(R"({"metadata": {"annotations": {"y": null, "z": "3"}}})"));
}

TEST(MergePatch, ArraysAreReplacedWhole) {
  EXPECT_EQ(CreateMergePatch(json::parse(R"({"finalizers": ["a", "b"]})"),
                             json::parse(R"({"finalizers": ["a", "b", "c"]})")),
            json::parse(R"({"finalizers": ["a", "b", "c"]})"));
}

TEST(MergePatch, NullValues) {
  // Set to null: a deletion.
  EXPECT_EQ(CreateMergePatch(json::parse(R"({"a": 1})"), json::parse(R"({"a": null})")),
            json::parse(R"({"a": null})"));
  // Null where there was nothing: no change needed.
  EXPECT_EQ(CreateMergePatch(json::parse(R"({})"), json::parse(R"({"a": null})")), json::object());
  // Null on both sides: unchanged.
  EXPECT_EQ(CreateMergePatch(json::parse(R"({"a": null})"), json::parse(R"({"a": null})")),
            json::object());
}

TEST(MergePatch, TypeChangeReplacesValue) {
  EXPECT_EQ(CreateMergePatch(json::parse(R"({"a": {"b": 1}})"), json::parse(R"({"a": [1]})")),
            json::parse(R"({"a": [1]})"));
  EXPECT_EQ(CreateMergePatch(json::parse(R"({"a": "s"})"), json::parse(R"({"a": {"b": 1}})")),
            json::parse(R"({"a": {"b": 1}})"));
}

TEST(MergePatch, NonObjectModifiedReplacesDocument) {
  EXPECT_EQ(CreateMergePatch(json::parse(R"({"a": 1})"), json::parse("[1]")), json::parse("[1]"));
}

}  // namespace
}  // namespace kube
