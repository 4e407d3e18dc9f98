// The protobuf decoders (kube/api/proto/) against the real kube-apiserver:
// objects with every field our structs hold set, read as JSON and as
// protobuf, must decode to equal structs; a protobuf watch carries every
// event type, the initial-events-end bookmark and a 410 ERROR whose Status
// decodes; the Client's reads and writes of a protobuf kind get protobuf
// answers, and a failure's protobuf Status gives its message.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/proto/decode.h"
#include "kube/api/proto/watch_decoder.h"
#include "kube/api/resource.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/api/watch_stream_decoder.h"
#include "kube/client/client.h"
#include "kube/client/http_transport.h"
#include "tests/integration/kube/cluster_fixture.h"

namespace kube {
namespace {

constexpr std::string_view kJson = "application/json";

class ProtobufTest : public ClusterTest {
 protected:
  template <class T>
  void Post(const std::string& body) {
    auto created = admin_->Request("POST", ResourcePath<T>(""), body, kJson);
    ASSERT_TRUE(created.ok()) << created.error().message;
  }

  // The object as JSON and as protobuf, decoded by each decoder.
  template <class T>
  void ExpectSameThroughJsonAndProtobuf(const std::string& name) {
    auto json_bytes = admin_->Request("GET", ResourcePath<T>("", name), {}, {}, kJson);
    ASSERT_TRUE(json_bytes.ok()) << json_bytes.error().message;
    auto json = DecodeObject<T>(*json_bytes);
    ASSERT_TRUE(json.ok()) << json.error().message;
    auto bytes = admin_->Request("GET", ResourcePath<T>("", name), {}, {}, kProtobufContentType);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    ASSERT_TRUE(bytes->starts_with(proto::kEnvelopeMagic)) << "the server did not answer protobuf";
    auto decoded = DecodeProtobuf<T>(*bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.error().message;
    EXPECT_EQ(*decoded, *json) << name;
  }
};

constexpr std::string_view kMetadata = R"(
  "labels": {"app": "proto", "tier": "x"},
  "annotations": {"b.example.com/two": "2", "a.example.com/one": "1"},
  "finalizers": ["example.com/keep", "external-attacher/proto-example-com"],
  "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": "node-1",
                       "uid": "3b6f0a44-1d5e-4b4c-9a59-3f3c3b0f0a01", "controller": true,
                       "blockOwnerDeletion": false}])";

TEST_F(ProtobufTest, PersistentVolumesDecodeAlikeFromJsonAndProtobuf) {
  Post<PersistentVolume>(R"({"apiVersion": "v1", "kind": "PersistentVolume",
    "metadata": {"name": "proto-csi-pv", )" +
                         std::string(kMetadata) + R"(},
    "spec": {
      "capacity": {"storage": "10Gi"},
      "accessModes": ["ReadWriteOnce", "ReadOnlyMany"],
      "volumeMode": "Block",
      "mountOptions": ["ro", "noatime"],
      "persistentVolumeReclaimPolicy": "Delete",
      "storageClassName": "fast",
      "claimRef": {"kind": "PersistentVolumeClaim", "namespace": "default", "name": "claim-1",
                   "uid": "9d7c1c2e-5b7a-4f1e-8f5e-0a0b0c0d0e0f", "apiVersion": "v1"},
      "nodeAffinity": {"required": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "topology.example.com/zone", "operator": "In",
                               "values": ["a", "b"]}],
         "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}]},
        {"matchExpressions": [{"key": "rack", "operator": "Exists"}]}]}},
      "csi": {"driver": "proto.example.com", "volumeHandle": "handle-1", "readOnly": true,
              "fsType": "xfs", "volumeAttributes": {"k1": "v1", "k2": "v2"},
              "controllerPublishSecretRef": {"name": "secret", "namespace": "ns"},
              "nodeStageSecretRef": {"name": "stage", "namespace": "ns"}}}})");
  Post<PersistentVolume>(R"({"apiVersion": "v1", "kind": "PersistentVolume",
    "metadata": {"name": "proto-gce-pv"},
    "spec": {"capacity": {"storage": "5Gi"}, "accessModes": ["ReadWriteOnce"],
             "gcePersistentDisk": {"pdName": "disk-1", "fsType": "ext4", "partition": 2,
                                   "readOnly": true}}})");
  Post<PersistentVolume>(R"({"apiVersion": "v1", "kind": "PersistentVolume",
    "metadata": {"name": "proto-azure-pv"},
    "spec": {"capacity": {"storage": "5Gi"}, "accessModes": ["ReadWriteOnce"],
             "azureDisk": {"diskName": "d", "diskURI": "/subscriptions/s/disks/d",
                           "cachingMode": "ReadOnly", "fsType": "ext4", "readOnly": false,
                           "kind": "Managed"}}})");
  Post<PersistentVolume>(R"({"apiVersion": "v1", "kind": "PersistentVolume",
    "metadata": {"name": "proto-nfs-pv"},
    "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteMany"],
             "nfs": {"server": "nfs.example.com", "path": "/export"}}})");
  // Deleted while a finalizer holds it: deletionTimestamp is set.
  ASSERT_TRUE(admin_->Delete<PersistentVolume>("", "proto-csi-pv").ok());

  for (const char* name : {"proto-csi-pv", "proto-gce-pv", "proto-azure-pv", "proto-nfs-pv"}) {
    ExpectSameThroughJsonAndProtobuf<PersistentVolume>(name);
  }
  auto pv = admin_->Get<PersistentVolume>("", "proto-csi-pv");
  ASSERT_TRUE(pv.ok());
  EXPECT_FALSE(pv->metadata.deletion_timestamp.empty()) << "the test must cover deletionTimestamp";
  EXPECT_FALSE(pv->metadata.creation_timestamp.empty());
  EXPECT_EQ(pv->spec.node_affinity.size(), 2u);

  auto json = admin_->List<PersistentVolume>("");
  ASSERT_TRUE(json.ok()) << json.error().message;
  auto bytes =
      admin_->Request("GET", ResourcePath<PersistentVolume>(""), {}, {}, kProtobufContentType);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  auto list = DecodeProtobuf<ObjectList<PersistentVolume>>(*bytes);
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(list->metadata, json->metadata);
  EXPECT_EQ(list->items, json->items);
}

TEST_F(ProtobufTest, VolumeAttachmentsDecodeAlikeFromJsonAndProtobuf) {
  Post<VolumeAttachment>(R"({"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment",
    "metadata": {"name": "proto-va", )" +
                         std::string(kMetadata) + R"(},
    "spec": {"attacher": "proto.example.com", "nodeName": "node-1",
             "source": {"persistentVolumeName": "proto-csi-pv"}}})");
  auto status = admin_->Request("PATCH", ResourcePath<VolumeAttachment>("", "proto-va") + "/status",
                                R"({"status": {"attached": true,
      "attachmentMetadata": {"dev": "/dev/xvdb", "lun": "3"},
      "attachError": {"time": "2026-11-24T04:22:33Z", "message": "attach failed", "errorCode": 13},
      "detachError": {"message": "detach failed"}}})",
                                "application/merge-patch+json");
  ASSERT_TRUE(status.ok()) << status.error().message;
  Post<VolumeAttachment>(R"({"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment",
    "metadata": {"name": "proto-inline-va"},
    "spec": {"attacher": "proto.example.com", "nodeName": "node-2",
             "source": {"inlineVolumeSpec": {
               "accessModes": ["ReadWriteOnce"],
               "csi": {"driver": "proto.example.com", "volumeHandle": "inline-1"}}}}})");
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "proto-va").ok());

  for (const char* name : {"proto-va", "proto-inline-va"}) {
    ExpectSameThroughJsonAndProtobuf<VolumeAttachment>(name);
  }
  auto va = admin_->Get<VolumeAttachment>("", "proto-va");
  ASSERT_TRUE(va.ok());
  EXPECT_FALSE(va->metadata.deletion_timestamp.empty());
  ASSERT_TRUE(va->status.attach_error.has_value());
  EXPECT_EQ(va->status.attach_error->error_code, 13);
}

// What Client::Patch and Get ask for (kAcceptFor), the server answers as
// protobuf, and the Client's result equals the JSON view of the same version.
TEST_F(ProtobufTest, PatchAndGetOfAProtobufKindAreAnsweredAsProtobuf) {
  Post<VolumeAttachment>(R"({"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment",
    "metadata": {"name": "proto-answer"},
    "spec": {"attacher": "proto.example.com", "nodeName": "node-1",
             "source": {"persistentVolumeName": "pv-a"}}})");
  const std::string path = ResourcePath<VolumeAttachment>("", "proto-answer");
  auto raw = admin_->Request("PATCH", path, R"({"metadata":{"labels":{"step":"1"}}})",
                             "application/merge-patch+json", kAcceptFor<VolumeAttachment>);
  ASSERT_TRUE(raw.ok()) << raw.error().message;
  EXPECT_TRUE(raw->starts_with(proto::kEnvelopeMagic)) << "the PATCH was answered as JSON";

  auto patched = admin_->Patch<VolumeAttachment>("", "proto-answer", PatchType::kMerge,
                                                 R"({"metadata":{"labels":{"step":"2"}}})");
  ASSERT_TRUE(patched.ok()) << patched.error().message;
  auto step = patched->metadata.labels.find("step");
  ASSERT_NE(step, patched->metadata.labels.end());
  EXPECT_EQ(step->second, "2");
  auto json_bytes = admin_->Request("GET", path, {}, {}, kJson);
  ASSERT_TRUE(json_bytes.ok()) << json_bytes.error().message;
  auto json = DecodeObject<VolumeAttachment>(*json_bytes);
  ASSERT_TRUE(json.ok()) << json.error().message;
  EXPECT_EQ(*patched, *json);
  auto got = admin_->Get<VolumeAttachment>("", "proto-answer");
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(*got, *json);
}

TEST_F(ProtobufTest, FailedRequestOfAProtobufKindGivesTheServersMessage) {
  const std::string path = ResourcePath<VolumeAttachment>("", "proto-missing");
  auto transport = HttpTransport::Create(admin_->config(), base::Clock::Real());
  ASSERT_TRUE(transport.ok()) << transport.error().message;
  HttpRequest request;
  request.path = path;
  request.accept = kAcceptFor<VolumeAttachment>;
  auto response = (*transport)->Do(request);
  ASSERT_TRUE(response.ok()) << response.error().message;
  ASSERT_EQ(response->status, 404);
  ASSERT_TRUE(response->body.starts_with(proto::kEnvelopeMagic)) << "the Status came as JSON";
  EXPECT_EQ(ErrorFromResponse(*response, "GET", path).message,
            R"(volumeattachments.storage.k8s.io "proto-missing" not found)");

  auto got = admin_->Get<VolumeAttachment>("", "proto-missing");
  ASSERT_FALSE(got.ok());
  EXPECT_TRUE(got.error().IsHttp(404));
  EXPECT_EQ(got.error().message, R"(volumeattachments.storage.k8s.io "proto-missing" not found)");
}

struct Collected {
  std::vector<WatchEvent<VolumeAttachment>> events;
  std::string content_type;
};

// A raw watch through the transport (to see the answer's Content-Type), its
// frames decoded by ProtobufWatchDecoder until `until` says stop.
base::Status WatchProtobuf(Client& client, const std::string& query, Collected& collected,
                           const std::function<bool(const WatchEvent<VolumeAttachment>&)>& until) {
  auto transport = HttpTransport::Create(client.config(), base::Clock::Real());
  if (!transport.ok()) return transport.error();
  std::function<bool(WatchEvent<VolumeAttachment> &&)> on_event = [&](auto&& event) {
    collected.events.push_back(event);
    return !until(collected.events.back());
  };
  ProtobufWatchDecoder<VolumeAttachment> decoder(on_event);
  HttpRequest request;
  request.path = ResourcePath<VolumeAttachment>("") + query;
  request.accept = WatchStreamDecoder<VolumeAttachment>::kWatchAccept;
  auto response =
      (*transport)
          ->Stream(
              request, [&](std::string_view chunk) { return decoder.Feed(chunk); },
              std::stop_token(),
              [&](const ResponseHead& head) { collected.content_type = head.content_type; });
  if (!response.ok()) return response.error();
  if (response->status != 200) return base::Error::Http(response->status, response->body);
  if (!decoder.error().message.empty()) return decoder.error();
  return {};
}

TEST_F(ProtobufTest, WatchStreamCarriesEveryEventTypeAsProtobuf) {
  Post<VolumeAttachment>(R"({"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment",
    "metadata": {"name": "proto-watch-before"},
    "spec": {"attacher": "watch.example.com", "nodeName": "node-1",
             "source": {"persistentVolumeName": "pv-w"}}})");
  Collected collected;
  std::thread writer;
  auto status = WatchProtobuf(
      *admin_,
      "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks="
      "true",
      collected, [&](const WatchEvent<VolumeAttachment>& event) {
        if (IsInitialEventsEnd(event)) {
          writer = std::thread([&] {
            Post<VolumeAttachment>(R"({"apiVersion": "storage.k8s.io/v1",
              "kind": "VolumeAttachment", "metadata": {"name": "proto-watch-after"},
              "spec": {"attacher": "watch.example.com", "nodeName": "node-1",
                       "source": {"persistentVolumeName": "pv-w2"}}})");
            EXPECT_TRUE(admin_
                            ->Patch<VolumeAttachment>("", "proto-watch-after", PatchType::kMerge,
                                                      R"({"metadata":{"labels":{"v":"2"}}})")
                            .ok());
            EXPECT_TRUE(admin_->Delete<VolumeAttachment>("", "proto-watch-after").ok());
          });
        }
        return event.type == WatchEventType::kDeleted &&
               event.object.metadata.name == "proto-watch-after";
      });
  if (writer.joinable()) writer.join();
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(collected.content_type, "application/vnd.kubernetes.protobuf;stream=watch");

  std::vector<std::string> seen;
  for (const auto& event : collected.events) {
    if (event.object.metadata.name == "proto-watch-after" ||
        event.object.metadata.name == "proto-watch-before") {
      seen.push_back(std::to_string(static_cast<int>(event.type)) + " " +
                     event.object.metadata.name);
    } else if (IsInitialEventsEnd(event)) {
      seen.push_back("initial-events-end");
      EXPECT_FALSE(event.object.metadata.resource_version.empty());
    }
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"0 proto-watch-before", "initial-events-end",
                                            "0 proto-watch-after", "1 proto-watch-after",
                                            "2 proto-watch-after"}));
  auto added = std::find_if(collected.events.begin(), collected.events.end(), [](const auto& e) {
    return e.object.metadata.name == "proto-watch-before";
  });
  ASSERT_NE(added, collected.events.end());
  auto json = admin_->Get<VolumeAttachment>("", "proto-watch-before");
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(added->object, *json) << "the initial ADDED event must decode as the JSON GET does";
}

TEST_F(ProtobufTest, ExpiredResourceVersionArrivesAsAnErrorEventWithItsStatus) {
  Post<VolumeAttachment>(R"({"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment",
    "metadata": {"name": "proto-expire"},
    "spec": {"attacher": "watch.example.com", "nodeName": "node-1",
             "source": {"persistentVolumeName": "pv-e"}}})");
  auto old = admin_->Get<VolumeAttachment>("", "proto-expire");
  ASSERT_TRUE(old.ok());
  ASSERT_TRUE(admin_
                  ->Patch<VolumeAttachment>("", "proto-expire", PatchType::kMerge,
                                            R"({"metadata":{"labels":{"v":"2"}}})")
                  .ok());
  ASSERT_TRUE(plane_->CompactEtcd().ok());
  ASSERT_TRUE(plane_->StopApiServer().ok());
  ASSERT_TRUE(plane_->StartApiServer().ok());

  Collected collected;
  auto status =
      WatchProtobuf(*admin_, "?watch=true&resourceVersion=" + old->metadata.resource_version,
                    collected, [](const WatchEvent<VolumeAttachment>& event) {
                      return event.type == WatchEventType::kError;
                    });
  ASSERT_TRUE(status.ok()) << status.error().message;
  ASSERT_FALSE(collected.events.empty());
  const auto& error = collected.events.back();
  ASSERT_EQ(error.type, WatchEventType::kError);
  EXPECT_EQ(error.error.code, 410);
  EXPECT_NE(error.error.message.find("too old resource version"), std::string::npos)
      << error.error.message;
}

}  // namespace
}  // namespace kube
