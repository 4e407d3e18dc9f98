// ClientListerWatcher: what reaches the API server for a reflector's lists and
// watches, with and without a label selector (--node-deployment's filter,
// docs/snapshots.md §3.1).
#include "kube/runtime/lister_watcher.h"

#include <gtest/gtest.h>

#include "kube/api/storage/v1/volume_attachment.h"
#include "tests/support/scripted_http_server.h"

namespace kube {
namespace {

using testsupport::ScriptedHttpServer;

constexpr std::string_view kEmptyList =
    R"({"kind":"VolumeAttachmentList","metadata":{"resourceVersion":"9"},"items":[]})";

class ClientListerWatcherTest : public ::testing::Test {
 protected:
  ClientListerWatcherTest() {
    RestConfig config;
    config.server = server_.url();
    auto client = Client::Create(config, clock_);
    EXPECT_TRUE(client.ok()) << client.error().message;
    client_ = std::move(client).value();
  }

  // Lists with the reflector's paging options, then opens one watch.
  void ListAndWatch(ListerWatcher<VolumeAttachment>& source) {
    server_.Script({200, {}, {std::string(kEmptyList)}});
    server_.Script({200, {}, {}});
    ListOptions list;
    list.limit = 500;
    ASSERT_TRUE(source.List(list).ok());
    WatchOptions watch;
    watch.resource_version = "9";
    std::function<bool(WatchEvent<VolumeAttachment> &&)> ignore = [](auto&&) { return true; };
    ASSERT_TRUE(source.Watch(watch, ignore, {}).ok());
  }

  ScriptedHttpServer server_;
  base::FakeClock clock_;
  std::unique_ptr<Client> client_;
};

TEST_F(ClientListerWatcherTest, SelectorGoesOnEveryListAndWatch) {
  ClientListerWatcher<VolumeAttachment> source(*client_, "",
                                               "snapshot.storage.kubernetes.io/managed-by=node-1");
  ListAndWatch(source);
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].target,
            "/apis/storage.k8s.io/v1/volumeattachments?limit=500&"
            "labelSelector=snapshot.storage.kubernetes.io%2Fmanaged-by%3Dnode-1");
  EXPECT_EQ(requests[1].target,
            "/apis/storage.k8s.io/v1/volumeattachments?watch=true&resourceVersion=9&"
            "allowWatchBookmarks=true&"
            "labelSelector=snapshot.storage.kubernetes.io%2Fmanaged-by%3Dnode-1");
}

TEST_F(ClientListerWatcherTest, WithoutSelectorEverythingIsListedAndWatched) {
  ClientListerWatcher<VolumeAttachment> source(*client_, "");
  ListAndWatch(source);
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].target, "/apis/storage.k8s.io/v1/volumeattachments?limit=500");
  EXPECT_EQ(requests[1].target,
            "/apis/storage.k8s.io/v1/volumeattachments?watch=true&resourceVersion=9&"
            "allowWatchBookmarks=true");
}

}  // namespace
}  // namespace kube
