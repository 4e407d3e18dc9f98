// A custom resource is as first-class as a built-in kind: this test defines
// one (Widget, example.com/v1, namespaced, with a status subresource) in one
// place below, and path building, decoding, encoding and the typed client
// work for it with nothing registered anywhere else.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "base/clock.h"
#include "kube/api/codec.h"
#include "kube/api/core/v1/event.h"
#include "kube/api/field.h"
#include "kube/api/json_patch.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"
#include "kube/api/resource.h"
#include "kube/client/client.h"
#include "tests/support/scripted_http_server.h"

namespace example {

struct WidgetSpec {
  std::string color;
  int32_t replicas = 0;
  std::vector<std::string> tags;

  bool operator==(const WidgetSpec&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        kube::Field("color", &WidgetSpec::color),
        kube::Field("replicas", &WidgetSpec::replicas),
        kube::Field("tags", &WidgetSpec::tags),
    };
  }
};

struct WidgetStatus {
  bool ready = false;
  std::optional<int64_t> observed_generation;

  bool operator==(const WidgetStatus&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        kube::Field("ready", &WidgetStatus::ready, kube::Emit::kAlways),
        kube::Field("observedGeneration", &WidgetStatus::observed_generation),
    };
  }
};

struct Widget {
  static constexpr kube::KindFacts kFacts{.api_version = "example.com/v1",
                                          .kind = "Widget",
                                          .plural = "widgets",
                                          .scope = kube::Scope::kNamespaced,
                                          .status_subresource = true};

  kube::ObjectMeta metadata;
  WidgetSpec spec;
  WidgetStatus status;

  bool operator==(const Widget&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        kube::Field("metadata", &Widget::metadata),
        kube::Field("spec", &Widget::spec),
        kube::Field("status", &Widget::status),
    };
  }
};

}  // namespace example

namespace kube {
namespace {

using example::Widget;
using testsupport::ScriptedHttpServer;

constexpr std::string_view kWidget = R"json({
  "apiVersion": "example.com/v1", "kind": "Widget",
  "metadata": {"name": "w1", "namespace": "shop", "resourceVersion": "12", "generation": 3},
  "spec": {"color": "blue", "replicas": 3, "tags": ["a", "b"], "futureField": {"x": 1}},
  "status": {"ready": true, "observedGeneration": 3}
})json";

Widget ExpectedWidget() {
  Widget widget;
  widget.metadata.name = "w1";
  widget.metadata.namespace_ = "shop";
  widget.metadata.resource_version = "12";
  widget.spec = {.color = "blue", .replicas = 3, .tags = {"a", "b"}};
  widget.status = {.ready = true, .observed_generation = 3};
  return widget;
}

TEST(CustomKind, PathsComeFromTheKindsOwnFacts) {
  EXPECT_EQ(Widget::kFacts.group(), "example.com");
  EXPECT_EQ(Widget::kFacts.version(), "v1");
  EXPECT_EQ(ResourcePath<Widget>("shop", "w1"), "/apis/example.com/v1/namespaces/shop/widgets/w1");
  EXPECT_EQ(ResourcePath<Widget>(""), "/apis/example.com/v1/widgets");
  EXPECT_TRUE(ResourceTraits<Widget>::kNamespaced);
  EXPECT_TRUE(ResourceTraits<Widget>::kHasStatusSubresource);
}

TEST(CustomKind, DecodesItsTableAndSkipsUnknownFields) {
  auto widget = DecodeObject<Widget>(kWidget);
  ASSERT_TRUE(widget.ok()) << widget.error().message;
  EXPECT_EQ(*widget, ExpectedWidget());
}

TEST(CustomKind, TypeErrorsNameTheKindAndPath) {
  auto widget = DecodeObject<Widget>(R"({"spec": {"tags": ["a", 7]}})");
  ASSERT_FALSE(widget.ok());
  EXPECT_EQ(widget.error().message,
            "decoding Widget: spec.tags[1]: type must be string, but is number");

  auto list = DecodeList<Widget>(R"({"items": [{"status": {"observedGeneration": 1.5}}]})");
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.error().message,
            "decoding WidgetList: items[0].status.observedGeneration: type must be integer, but "
            "is number");
}

TEST(CustomKind, EncodesItsTableWithTypeMetaAndEmitRules) {
  Widget widget;
  widget.metadata.name = "w1";
  widget.spec.color = "red";
  EXPECT_EQ(nlohmann::json::parse(EncodeObject(widget)), nlohmann::json::parse(R"json({
    "apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w1"},
    "spec": {"color": "red"}, "status": {"ready": false}})json"));

  auto again = DecodeObject<Widget>(EncodeObject(ExpectedWidget()));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, ExpectedWidget());
}

TEST(CustomKind, ReferenceNamesTheKindAndTheObject) {
  EXPECT_EQ(ReferenceTo(ExpectedWidget()), (ObjectReference{.kind = "Widget",
                                                            .namespace_ = "shop",
                                                            .name = "w1",
                                                            .api_version = "example.com/v1",
                                                            .resource_version = "12"}));
}

class CustomKindClientTest : public ::testing::Test {
 protected:
  std::unique_ptr<Client> MakeClient() {
    RestConfig config;
    config.server = server_.url();
    auto client = Client::Create(config, clock_);
    EXPECT_TRUE(client.ok()) << client.error().message;
    return std::move(client).value();
  }

  ScriptedHttpServer server_;
  base::FakeClock clock_;
};

TEST_F(CustomKindClientTest, UpdateStatusPutsTheStatusSubresource) {
  server_.Script({200, {}, {std::string(kWidget)}});
  auto updated = MakeClient()->UpdateStatus(ExpectedWidget());
  ASSERT_TRUE(updated.ok()) << updated.error().message;
  EXPECT_EQ(*updated, ExpectedWidget());
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "PUT");
  EXPECT_EQ(requests[0].target, "/apis/example.com/v1/namespaces/shop/widgets/w1/status");
  EXPECT_EQ(requests[0].headers["content-type"], "application/json");
  // What was decoded, without the fields the struct does not keep.
  nlohmann::json sent = nlohmann::json::parse(kWidget);
  sent.merge_patch(nlohmann::json::parse(
      R"({"metadata": {"generation": null}, "spec": {"futureField": null}})"));
  EXPECT_EQ(nlohmann::json::parse(requests[0].body), sent);
}

TEST_F(CustomKindClientTest, PatchStatusSendsAGuardedJsonPatch) {
  server_.Script({200, {}, {std::string(kWidget)}});
  JsonPatch patch;
  patch.Test("/status/ready", false).Replace("/status/ready", true);
  auto patched =
      MakeClient()->PatchStatus<Widget>("shop", "w1", PatchType::kJson, patch.Serialize());
  ASSERT_TRUE(patched.ok()) << patched.error().message;
  EXPECT_TRUE(patched->status.ready);
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "PATCH");
  EXPECT_EQ(requests[0].target, "/apis/example.com/v1/namespaces/shop/widgets/w1/status");
  EXPECT_EQ(requests[0].headers["content-type"], "application/json-patch+json");
  EXPECT_EQ(requests[0].body, patch.Serialize());
}

TEST_F(CustomKindClientTest, WatchDecodesEventsOfTheKind) {
  std::string event =
      R"({"type":"MODIFIED","object":)" + nlohmann::json::parse(kWidget).dump() + "}\n";
  server_.Script({200, {}, {event}});
  std::vector<Widget> seen;
  std::function<bool(WatchEvent<Widget> &&)> collect = [&](WatchEvent<Widget>&& e) {
    EXPECT_EQ(e.type, WatchEventType::kModified);
    seen.push_back(std::move(e.object));
    return true;
  };
  ASSERT_TRUE(MakeClient()->Watch<Widget>("shop", {}, collect, {}).ok());
  EXPECT_THAT(seen, ::testing::ElementsAre(ExpectedWidget()));
  EXPECT_THAT(server_.requests().at(0).target,
              ::testing::StartsWith("/apis/example.com/v1/namespaces/shop/widgets?watch=true"));
}

}  // namespace
}  // namespace kube
