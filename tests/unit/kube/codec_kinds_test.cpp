// CSINode, Secret, Lease, Event and ReferenceGrant codecs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "kube/api/codec.h"
#include "kube/api/coordination/v1/lease.h"
#include "kube/api/core/v1/event.h"
#include "kube/api/core/v1/secret.h"
#include "kube/api/gateway/v1beta1/reference_grant.h"
#include "kube/api/storage/v1/csi_node.h"

namespace kube {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CSINodeCodec, DecodesDriversAndRoundTrips) {
  auto node = DecodeObject<CSINode>(R"json({
    "apiVersion": "storage.k8s.io/v1", "kind": "CSINode",
    "metadata": {"name": "node-1", "uid": "7e2b", "resourceVersion": "512",
                 "annotations": {"storage.alpha.kubernetes.io/migrated-plugins": "kubernetes.io/aws-ebs"},
                 "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": "node-1", "uid": "u"}]},
    "spec": {"drivers": [
      {"name": "ebs.csi.aws.com", "nodeID": "i-0123456789abcdef0",
       "topologyKeys": ["topology.ebs.csi.aws.com/zone", "topology.kubernetes.io/zone"],
       "allocatable": {"count": 25}},
      {"name": "hostpath.csi.k8s.io", "nodeID": "node-1", "topologyKeys": null}
    ]}})json");
  ASSERT_TRUE(node.ok()) << node.error().message;
  ASSERT_EQ(node->spec.drivers.size(), 2u);
  const CSINodeDriver& ebs = node->spec.drivers[0];
  EXPECT_EQ(ebs.node_id, "i-0123456789abcdef0");
  EXPECT_THAT(ebs.topology_keys,
              ElementsAre("topology.ebs.csi.aws.com/zone", "topology.kubernetes.io/zone"));
  EXPECT_EQ(ebs.allocatable_count, 25);
  EXPECT_FALSE(node->spec.drivers[1].allocatable_count.has_value());

  auto again = DecodeObject<CSINode>(EncodeObject(*node));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *node);
}

TEST(ReferenceGrantCodec, DecodesFromAndToWithAnOptionalName) {
  auto grant = DecodeObject<ReferenceGrant>(R"json({
    "apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "ReferenceGrant",
    "metadata": {"name": "restores", "namespace": "snapshots"},
    "spec": {"from": [{"group": "", "kind": "PersistentVolumeClaim", "namespace": "apps"}],
             "to": [{"group": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot", "name": "nightly"},
                    {"group": "", "kind": "PersistentVolumeClaim"}]}})json");
  ASSERT_TRUE(grant.ok()) << grant.error().message;
  ASSERT_EQ(grant->spec.from.size(), 1u);
  EXPECT_EQ(grant->spec.from[0].namespace_, "apps");
  ASSERT_EQ(grant->spec.to.size(), 2u);
  EXPECT_EQ(grant->spec.to[0].name, "nightly");
  EXPECT_FALSE(grant->spec.to[1].name.has_value());
  auto again = DecodeObject<ReferenceGrant>(EncodeObject(*grant));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *grant);
}

TEST(CSINodeCodec, FindDriverByName) {
  CSINode node;
  node.spec.drivers = {{"a.csi", "n-a", {}, {}}, {"b.csi", "n-b", {}, {}}};
  ASSERT_NE(node.spec.FindDriver("b.csi"), nullptr);
  EXPECT_EQ(node.spec.FindDriver("b.csi")->node_id, "n-b");
  EXPECT_EQ(node.spec.FindDriver("c.csi"), nullptr);
}

TEST(SecretCodec, DecodesBase64DataAndIgnoresStringData) {
  auto secret = DecodeObject<Secret>(R"json({
    "apiVersion": "v1", "kind": "Secret", "type": "Opaque",
    "metadata": {"name": "ebs-publish", "namespace": "kube-system", "resourceVersion": "77"},
    "data": {"password": "czNjcjN0", "token": "AAEC/w==", "empty": ""},
    "stringData": {"ignored": "value"}})json");
  ASSERT_TRUE(secret.ok()) << secret.error().message;
  EXPECT_EQ(secret->metadata.namespace_, "kube-system");
  EXPECT_EQ(secret->type, "Opaque");
  EXPECT_EQ(secret->data, (StringMap{{"password", "s3cr3t"},
                                     {"token", std::string("\x00\x01\x02\xff", 4)},
                                     {"empty", ""}}));

  auto again = DecodeObject<Secret>(EncodeObject(*secret));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *secret);
}

TEST(SecretCodec, BadBase64IsAnErrorNamingTheKey) {
  auto secret = DecodeObject<Secret>(R"({"data": {"password": "not base64!"}})");
  ASSERT_FALSE(secret.ok());
  EXPECT_THAT(secret.error().message, ::testing::StartsWith("decoding Secret: data.password: "));
  EXPECT_THAT(secret.error().message, ::testing::Not(HasSubstr("not base64")));
}

TEST(SecretCodec, EncodesDataAsBase64) {
  Secret secret;
  secret.metadata.name = "s";
  secret.data = {{"key", "s3cr3t"}};
  auto j = nlohmann::json::parse(EncodeObject(secret));
  EXPECT_EQ(j["data"], nlohmann::json::parse(R"({"key": "czNjcjN0"})"));
}

constexpr char kLease[] = R"json({
  "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
  "metadata": {"name": "external-attacher-leader-ebs-csi-aws-com", "namespace": "kube-system",
               "resourceVersion": "90210", "uid": "c0ffee00-0000-4000-8000-000000000001",
               "creationTimestamp": "2024-05-01T09:00:00Z",
               "labels": {"app": "ebs-csi-controller"},
               "managedFields": [{"manager": "csi-attacher", "operation": "Update"}]},
  "spec": {"acquireTime": "2024-05-01T09:00:00.000000Z",
           "holderIdentity": "ebs-csi-controller-7d9f8b6c5-x2x4z",
           "leaseDurationSeconds": 15, "leaseTransitions": 3,
           "renewTime": "2024-05-01T10:15:42.123456Z"}})json";

TEST(LeaseCodec, DecodesSpec) {
  auto lease = DecodeObject<Lease>(kLease);
  ASSERT_TRUE(lease.ok()) << lease.error().message;
  EXPECT_EQ(lease->spec.holder_identity, "ebs-csi-controller-7d9f8b6c5-x2x4z");
  EXPECT_EQ(lease->spec.lease_duration_seconds, 15);
  EXPECT_EQ(lease->spec.acquire_time, "2024-05-01T09:00:00.000000Z");
  EXPECT_EQ(lease->spec.renew_time, "2024-05-01T10:15:42.123456Z");
  EXPECT_EQ(lease->spec.lease_transitions, 3);
}

TEST(LeaseCodec, EncodingCarriesWhatAnUpdateMustKeep) {
  auto lease = DecodeObject<Lease>(kLease);
  ASSERT_TRUE(lease.ok()) << lease.error().message;
  auto j = nlohmann::json::parse(EncodeObject(*lease));
  EXPECT_EQ(j["apiVersion"], "coordination.k8s.io/v1");
  EXPECT_EQ(j["kind"], "Lease");
  EXPECT_EQ(j["metadata"]["name"], "external-attacher-leader-ebs-csi-aws-com");
  EXPECT_EQ(j["metadata"]["namespace"], "kube-system");
  EXPECT_EQ(j["metadata"]["resourceVersion"], "90210");
  EXPECT_EQ(j["metadata"]["labels"], nlohmann::json::parse(R"({"app": "ebs-csi-controller"})"));
  EXPECT_EQ(j["spec"], nlohmann::json::parse(R"({
      "acquireTime": "2024-05-01T09:00:00.000000Z",
      "holderIdentity": "ebs-csi-controller-7d9f8b6c5-x2x4z",
      "leaseDurationSeconds": 15, "leaseTransitions": 3,
      "renewTime": "2024-05-01T10:15:42.123456Z"})"));

  auto again = DecodeObject<Lease>(j.dump());
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *lease);
}

TEST(LeaseCodec, ReleasedLeaseWritesEmptyHolder) {
  Lease lease;
  lease.metadata.name = "l";
  lease.spec.lease_duration_seconds = 1;
  auto j = nlohmann::json::parse(EncodeObject(lease));
  EXPECT_EQ(j["spec"], nlohmann::json::parse(
                           R"({"holderIdentity": "", "leaseDurationSeconds": 1,
                               "leaseTransitions": 0})"));
}

TEST(LeaseCodec, MissingSpecFieldsDecodeEmpty) {
  auto lease =
      DecodeObject<Lease>(R"({"metadata": {"name": "l"}, "spec": {"holderIdentity": null}})");
  ASSERT_TRUE(lease.ok()) << lease.error().message;
  EXPECT_EQ(lease->spec, LeaseSpec());
}

TEST(EventCodec, EncodesForPost) {
  Event event;
  event.metadata.name = "csi-9e1c.17c8a3b2f0e1d4c5";
  event.metadata.namespace_ = "default";
  event.involved_object = {"VolumeAttachment",  "",    "csi-9e1c", "6a7f3c1e",
                           "storage.k8s.io/v1", "1834"};
  event.reason = "AttachFailed";
  event.message = "rpc error: code = NotFound";
  event.type = "Warning";
  event.count = 1;
  event.first_timestamp = "2024-05-01T10:00:05Z";
  event.last_timestamp = "2024-05-01T10:00:05Z";
  event.source = {"csi-attacher", ""};
  event.reporting_component = "csi-attacher";
  event.reporting_instance = "csi-attacher-node-1";
  EXPECT_EQ(nlohmann::json::parse(EncodeObject(event)), nlohmann::json::parse(R"json({
    "apiVersion": "v1", "kind": "Event",
    "metadata": {"name": "csi-9e1c.17c8a3b2f0e1d4c5", "namespace": "default"},
    "involvedObject": {"kind": "VolumeAttachment", "name": "csi-9e1c", "uid": "6a7f3c1e",
                       "apiVersion": "storage.k8s.io/v1", "resourceVersion": "1834"},
    "reason": "AttachFailed", "message": "rpc error: code = NotFound", "type": "Warning",
    "count": 1, "firstTimestamp": "2024-05-01T10:00:05Z", "lastTimestamp": "2024-05-01T10:00:05Z",
    "source": {"component": "csi-attacher"},
    "reportingComponent": "csi-attacher", "reportingInstance": "csi-attacher-node-1"})json"));
}

TEST(EventCodec, DecodesServerAnswer) {
  auto event = DecodeObject<Event>(R"json({
    "apiVersion": "v1", "kind": "Event", "action": "", "eventTime": null,
    "metadata": {"name": "external-attacher-leader-hostpath.17c8", "namespace": "kube-system",
                 "resourceVersion": "4410", "uid": "e1"},
    "involvedObject": {"kind": "Lease", "namespace": "kube-system",
                       "name": "external-attacher-leader-hostpath-csi-k8s-io",
                       "apiVersion": "coordination.k8s.io/v1", "uid": "c0", "resourceVersion": "90"},
    "reason": "LeaderElection", "message": "pod-1 became leader", "type": "Normal", "count": 2,
    "firstTimestamp": "2024-05-01T09:00:00Z", "lastTimestamp": "2024-05-01T09:05:00Z",
    "source": {"component": "external-attacher-leader-hostpath-csi-k8s-io/pod-1", "host": "h"},
    "reportingComponent": "", "reportingInstance": ""})json");
  ASSERT_TRUE(event.ok()) << event.error().message;
  EXPECT_EQ(event->involved_object.kind, "Lease");
  EXPECT_EQ(event->involved_object.namespace_, "kube-system");
  EXPECT_EQ(event->count, 2);
  EXPECT_EQ(event->source.component, "external-attacher-leader-hostpath-csi-k8s-io/pod-1");
  EXPECT_EQ(event->source.host, "h");
  EXPECT_EQ(event->last_timestamp, "2024-05-01T09:05:00Z");

  auto again = DecodeObject<Event>(EncodeObject(*event));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *event);
}

}  // namespace
}  // namespace kube
