// docs/attacher.md §2 (logging): the JSON protosanitizer prints for the "GRPC
// call"/"GRPC response" lines — populated fields only, proto names, enums by
// name, sorted keys, csi_secret fields replaced by "***stripped***" at any
// depth, Go's encoding/json escaping and number forms.
#include "csi/proto_sanitizer.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "csi/proto/csi.pb.h"

namespace csi {
namespace {

using google::protobuf::TextFormat;

TEST(StripSecretsTest, PublishRequest) {
  v1::ControllerPublishVolumeRequest request;
  ASSERT_TRUE(TextFormat::ParseFromString(
      R"pb(
        volume_id: "vol-1"
        node_id: "node-1"
        readonly: true
        volume_capability {
          mount { fs_type: "ext4" mount_flags: "noatime" mount_flags: "ro" }
          access_mode { mode: SINGLE_NODE_MULTI_WRITER }
        }
        secrets { key: "password" value: "hunter2" }
        secrets { key: "user" value: "admin" }
        volume_context { key: "z" value: "1" }
        volume_context { key: "a" value: "2" }
      )pb",
      &request));
  EXPECT_EQ(StripSecrets(request),
            R"({"node_id":"node-1","readonly":true,"secrets":"***stripped***",)"
            R"("volume_capability":{"access_mode":{"mode":"SINGLE_NODE_MULTI_WRITER"},)"
            R"("mount":{"fs_type":"ext4","mount_flags":["noatime","ro"]}},)"
            R"("volume_context":{"a":"2","z":"1"},"volume_id":"vol-1"})");
}

TEST(StripSecretsTest, OnlyPopulatedFields) {
  v1::ControllerPublishVolumeRequest request;
  EXPECT_EQ(StripSecrets(request), "{}");
  request.set_readonly(false);
  request.mutable_volume_capability()->mutable_block();
  // An empty secrets map is not populated, so not even the marker appears.
  EXPECT_EQ(StripSecrets(request), R"({"volume_capability":{"block":{}}})");
}

TEST(StripSecretsTest, ProbeReadyWrapper) {
  v1::ProbeResponse response;
  EXPECT_EQ(StripSecrets(response), "{}");
  response.mutable_ready()->set_value(false);
  EXPECT_EQ(StripSecrets(response), R"({"ready":{}})");
  response.mutable_ready()->set_value(true);
  EXPECT_EQ(StripSecrets(response), R"({"ready":{"value":true}})");
}

TEST(StripSecretsTest, ListVolumesResponseNumbersAndNesting) {
  v1::ListVolumesResponse response;
  ASSERT_TRUE(
      TextFormat::ParseFromString(R"pb(
                                    entries {
                                      volume {
                                        volume_id: "v"
                                        capacity_bytes: 9007199254740993
                                        accessible_topology { segments { key: "zone" value: "b" } }
                                        content_source { snapshot { snapshot_id: "s" } }
                                      }
                                      status {
                                        published_node_ids: "n1"
                                        volume_condition { abnormal: true message: "degraded" }
                                      }
                                    }
                                    next_token: "t"
                                  )pb",
                                  &response));
  EXPECT_EQ(StripSecrets(response),
            R"({"entries":[{"status":{"published_node_ids":["n1"],)"
            R"("volume_condition":{"abnormal":true,"message":"degraded"}},)"
            R"("volume":{"accessible_topology":[{"segments":{"zone":"b"}}],)"
            R"("capacity_bytes":9007199254740993,"content_source":{"snapshot":)"
            R"({"snapshot_id":"s"}},"volume_id":"v"}}],"next_token":"t"})");
}

TEST(StripSecretsTest, UnknownEnumValueIsANumber) {
  v1::ControllerServiceCapability cap;
  cap.mutable_rpc()->set_type(static_cast<v1::ControllerServiceCapability::RPC::Type>(99));
  EXPECT_EQ(StripSecrets(cap), R"({"rpc":{"type":99}})");
}

TEST(StripSecretsTest, StringsAreEscapedLikeGoJson) {
  v1::GetPluginInfoResponse response;
  response.set_name("a\"b\\c\n\t\b\f\x01<&>\u2028é");
  (*response.mutable_manifest())["bad"] = std::string("x\xff", 2);
  EXPECT_EQ(StripSecrets(response), R"({"manifest":{"bad":"x\ufffd"},)"
                                    R"("name":"a\"b\\c\n\t\b\f\u0001\u003c\u0026\u003e\u2028é"})");
}

TEST(StripSecretsTest, CreateSnapshotRequest) {
  v1::CreateSnapshotRequest request;
  ASSERT_TRUE(TextFormat::ParseFromString(
      R"pb(
        source_volume_id: "vol-1"
        name: "snapshot-4ae3"
        secrets { key: "password" value: "hunter2" }
        parameters { key: "tier" value: "cold" }
      )pb",
      &request));
  EXPECT_EQ(StripSecrets(request), R"({"name":"snapshot-4ae3","parameters":{"tier":"cold"},)"
                                   R"("secrets":"***stripped***","source_volume_id":"vol-1"})");
}

TEST(StripSecretsTest, GroupSnapshotRequests) {
  v1::CreateVolumeGroupSnapshotRequest create;
  create.set_name("group-1");
  create.add_source_volume_ids("vol-1");
  (*create.mutable_secrets())["token"] = "hunter2";
  EXPECT_EQ(StripSecrets(create),
            R"({"name":"group-1","secrets":"***stripped***","source_volume_ids":["vol-1"]})");

  v1::DeleteVolumeGroupSnapshotRequest remove;
  remove.set_group_snapshot_id("g");
  remove.add_snapshot_ids("s1");
  (*remove.mutable_secrets())["token"] = "hunter2";
  EXPECT_EQ(StripSecrets(remove),
            R"({"group_snapshot_id":"g","secrets":"***stripped***","snapshot_ids":["s1"]})");
}

TEST(StripSecretsTest, SnapshotResponseWithTimestamp) {
  v1::CreateSnapshotResponse response;
  ASSERT_TRUE(TextFormat::ParseFromString(
      R"pb(
        snapshot {
          size_bytes: 1073741824
          snapshot_id: "snap-1"
          source_volume_id: "vol-1"
          creation_time { seconds: 1700000000 nanos: 5 }
          ready_to_use: true
        }
      )pb",
      &response));
  EXPECT_EQ(StripSecrets(response),
            R"({"snapshot":{"creation_time":{"nanos":5,"seconds":1700000000},)"
            R"("ready_to_use":true,"size_bytes":1073741824,"snapshot_id":"snap-1",)"
            R"("source_volume_id":"vol-1"}})");
}

// Every `secrets` field of the specification is marked, so none is ever
// logged, whichever call a sidecar makes.
TEST(StripSecretsTest, EverySecretsFieldOfTheSpecIsStripped) {
  const google::protobuf::FileDescriptor* file = v1::CreateSnapshotRequest::descriptor()->file();
  std::set<std::string> with_secrets;
  for (int i = 0; i < file->message_type_count(); ++i) {
    const google::protobuf::Descriptor* type = file->message_type(i);
    const google::protobuf::FieldDescriptor* secrets = type->FindFieldByName("secrets");
    if (secrets == nullptr) continue;
    with_secrets.insert(type->name());
    EXPECT_TRUE(secrets->options().GetExtension(v1::csi_secret)) << type->name();

    std::unique_ptr<google::protobuf::Message> message(
        google::protobuf::MessageFactory::generated_factory()->GetPrototype(type)->New());
    ASSERT_TRUE(TextFormat::ParseFromString(R"pb(secrets { key: "password" value: "hunter2" })pb",
                                            message.get()))
        << type->name();
    EXPECT_EQ(StripSecrets(*message), R"({"secrets":"***stripped***"})") << type->name();
  }
  for (const char* snapshot_call :
       {"CreateSnapshotRequest", "DeleteSnapshotRequest", "ListSnapshotsRequest",
        "GetSnapshotRequest", "CreateVolumeGroupSnapshotRequest",
        "DeleteVolumeGroupSnapshotRequest", "GetVolumeGroupSnapshotRequest"}) {
    EXPECT_TRUE(with_secrets.contains(snapshot_call)) << snapshot_call;
  }
}

// Secrets below the top level, in lists and in map values, and of non-map
// types, using a message type built at run time with the csi_secret option.
class NestedSecretsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    google::protobuf::FileDescriptorProto file;
    ASSERT_TRUE(TextFormat::ParseFromString(
        R"pb(
          name: "sanitizer_test.proto"
          package: "test"
          syntax: "proto3"
          message_type {
            name: "Inner"
            field {
              name: "secrets"
              number: 1
              label: LABEL_REPEATED
              type: TYPE_MESSAGE
              type_name: ".test.Inner.SecretsEntry"
              options {
                [csi.v1.csi_secret]: true
              }
            }
            field { name: "name" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
            field {
              name: "token"
              number: 3
              label: LABEL_OPTIONAL
              type: TYPE_BYTES
              options {
                [csi.v1.csi_secret]: true
              }
            }
            nested_type {
              name: "SecretsEntry"
              field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
              field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
              options { map_entry: true }
            }
          }
          message_type {
            name: "Outer"
            field {
              name: "inner"
              number: 1
              label: LABEL_OPTIONAL
              type: TYPE_MESSAGE
              type_name: ".test.Inner"
            }
            field {
              name: "items"
              number: 2
              label: LABEL_REPEATED
              type: TYPE_MESSAGE
              type_name: ".test.Inner"
            }
            field {
              name: "by_name"
              number: 3
              label: LABEL_REPEATED
              type: TYPE_MESSAGE
              type_name: ".test.Outer.ByNameEntry"
            }
            field {
              name: "by_id"
              number: 4
              label: LABEL_REPEATED
              type: TYPE_MESSAGE
              type_name: ".test.Outer.ByIdEntry"
            }
            field { name: "blob" number: 5 label: LABEL_OPTIONAL type: TYPE_BYTES }
            field { name: "ratio" number: 6 label: LABEL_REPEATED type: TYPE_DOUBLE }
            field { name: "small" number: 7 label: LABEL_REPEATED type: TYPE_FLOAT }
            nested_type {
              name: "ByNameEntry"
              field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
              field {
                name: "value"
                number: 2
                label: LABEL_OPTIONAL
                type: TYPE_MESSAGE
                type_name: ".test.Inner"
              }
              options { map_entry: true }
            }
            nested_type {
              name: "ByIdEntry"
              field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 }
              field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
              options { map_entry: true }
            }
          }
        )pb",
        &file));
    ASSERT_NE(pool_.BuildFile(file), nullptr);
    message_.reset(factory_.GetPrototype(pool_.FindMessageTypeByName("test.Outer"))->New());
  }

  google::protobuf::DescriptorPool pool_{google::protobuf::DescriptorPool::generated_pool()};
  google::protobuf::DynamicMessageFactory factory_{&pool_};
  std::unique_ptr<google::protobuf::Message> message_;
};

TEST_F(NestedSecretsTest, StrippedAtEveryDepth) {
  ASSERT_TRUE(TextFormat::ParseFromString(R"pb(
                                            inner {
                                              secrets { key: "password" value: "hunter2" }
                                              name: "a"
                                              token: "hunter2"
                                            }
                                            items {
                                              name: "b"
                                              secrets { key: "k" value: "hunter2" }
                                            }
                                            items { name: "c" }
                                            by_name {
                                              key: "x"
                                              value { secrets { key: "k" value: "hunter2" } }
                                            }
                                          )pb",
                                          message_.get()));
  EXPECT_EQ(StripSecrets(*message_),
            R"({"by_name":{"x":{"secrets":"***stripped***"}},)"
            R"("inner":{"name":"a","secrets":"***stripped***","token":"***stripped***"},)"
            R"("items":[{"name":"b","secrets":"***stripped***"},{"name":"c"}]})");
}

TEST_F(NestedSecretsTest, MapKeysBytesAndFloatsLikeGo) {
  ASSERT_TRUE(TextFormat::ParseFromString(R"pb(
                                            by_id { key: 10 value: "ten" }
                                            by_id { key: 2 value: "two" }
                                            by_id { key: 1 value: "one" }
                                            blob: "hi!?"
                                            ratio: [ 0.5, 1e-7, 1e21, 100 ]
                                            small: [ 0.1 ]
                                          )pb",
                                          message_.get()));
  EXPECT_EQ(StripSecrets(*message_),
            R"({"blob":"aGkhPw==","by_id":{"1":"one","10":"ten","2":"two"},)"
            R"("ratio":[0.5,1e-7,1e+21,100],"small":[0.1]})");
}

}  // namespace
}  // namespace csi
