// The exact strategic merge patch bodies StrategicMetadataPatch builds; what
// the API server makes of them is shown on a real one in
// tests/integration/kube/strategic_metadata_patch_test.cpp.
#include "kube/api/strategic_metadata_patch.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace kube {
namespace {

struct BodyCase {
  std::string name;
  std::function<void(StrategicMetadataPatch&)> build;
  std::string want;  // the exact body
};

class StrategicMetadataPatchBody : public ::testing::TestWithParam<BodyCase> {};

TEST_P(StrategicMetadataPatchBody, IsExact) {
  StrategicMetadataPatch patch;
  GetParam().build(patch);
  EXPECT_EQ(patch.Serialize(), GetParam().want);
  EXPECT_FALSE(patch.empty());
}

INSTANTIATE_TEST_SUITE_P(
    StrategicMetadataPatch, StrategicMetadataPatchBody,
    ::testing::Values(
        // The entry alone: the server merges it into the list it holds.
        BodyCase{"AddedFinalizerIsAListOfItAlone",
                 [](auto& p) { p.AddFinalizer("external-attacher/csi-example-com"); },
                 R"({"metadata":{"finalizers":["external-attacher/csi-example-com"]}})"},
        BodyCase{"RemovedFinalizerIsADeleteFromPrimitiveListDirective",
                 [](auto& p) { p.RemoveFinalizer("external-attacher/csi-example-com"); },
                 R"({"metadata":{"$deleteFromPrimitiveList/finalizers":)"
                 R"(["external-attacher/csi-example-com"]}})"},
        // A key with "/" needs no escaping, unlike a JSON Patch path.
        BodyCase{"AnnotationIsItsKeyAlone",
                 [](auto& p) { p.SetAnnotation("csi.alpha.kubernetes.io/node-id", "n~1"); },
                 R"({"metadata":{"annotations":{"csi.alpha.kubernetes.io/node-id":"n~1"}}})"},
        BodyCase{"FinalizerAndAnnotationShareOneMetadataObject",
                 [](auto& p) { p.AddFinalizer("f").SetAnnotation("k", "v"); },
                 R"({"metadata":{"annotations":{"k":"v"},"finalizers":["f"]}})"},
        BodyCase{"SeveralChangesOfAKindAreListedInOrder",
                 [](auto& p) {
                   p.AddFinalizer("b").AddFinalizer("a").RemoveFinalizer("y").RemoveFinalizer("x");
                   p.SetAnnotation("k2", "2").SetAnnotation("k1", "1");
                 },
                 R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["y","x"],)"
                 R"("annotations":{"k1":"1","k2":"2"},"finalizers":["b","a"]}})"},
        BodyCase{"AnnotationSetTwiceKeepsTheLastValue",
                 [](auto& p) { p.SetAnnotation("k", "old").SetAnnotation("k", "new"); },
                 R"({"metadata":{"annotations":{"k":"new"}}})"}),
    [](const auto& info) { return info.param.name; });

TEST(StrategicMetadataPatch, NothingAskedIsEmpty) {
  EXPECT_TRUE(StrategicMetadataPatch().empty());
  EXPECT_EQ(StrategicMetadataPatch().Serialize(), R"({"metadata":{}})");
}

}  // namespace
}  // namespace kube
