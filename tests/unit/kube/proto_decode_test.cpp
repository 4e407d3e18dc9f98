// The protobuf decoders of kube/api/proto/: hand-built bytes of each message,
// decoded into the same structs the JSON codec fills.
#include <gtest/gtest.h>

#include <string>

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/proto/core_v1.h"
#include "kube/api/proto/decode.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "tests/support/proto_writer.h"

namespace kube {
namespace {

using testsupport::Enveloped;
using testsupport::ProtoWriter;

// 2026-11-24T04:22:33Z
constexpr int64_t kSeconds = 1795494153;

ProtoWriter Time(int64_t seconds, int32_t nanos = 0) {
  return ProtoWriter().Varint(1, static_cast<uint64_t>(seconds)).Varint(2, nanos);
}

ProtoWriter Meta() {
  return ProtoWriter()
      .Bytes(1, "va-1")
      .Bytes(2, "generate-")  // generateName: not kept
      .Bytes(5, "uid-1")
      .Bytes(6, "42")
      .Varint(7, 3)  // generation: not kept
      .Message(8, Time(kSeconds, 123456789))
      .Message(9, Time(kSeconds + 61))
      .MapEntry(11, "app", "x")
      .MapEntry(12, "b", "2")
      .MapEntry(12, "a", "1")
      .Message(13, ProtoWriter()
                       .Bytes(1, "Pod")
                       .Bytes(3, "pod-1")
                       .Bytes(4, "uid-p")
                       .Bytes(5, "v1")
                       .Varint(6, 1))
      .Bytes(14, "external-attacher/drv")
      .Bytes(14, "other")
      .Message(17, ProtoWriter().Bytes(1, "manager"));  // managedFields: skipped
}

ObjectMeta ExpectedMeta() {
  ObjectMeta meta;
  meta.name = "va-1";
  meta.uid = "uid-1";
  meta.resource_version = "42";
  meta.creation_timestamp = "2026-11-24T04:22:33Z";
  meta.deletion_timestamp = "2026-11-24T04:23:34Z";
  meta.labels = {{"app", "x"}};
  meta.annotations = {{"a", "1"}, {"b", "2"}};
  meta.owner_references = {
      {.api_version = "v1", .kind = "Pod", .name = "pod-1", .uid = "uid-p", .controller = true}};
  meta.finalizers = {"external-attacher/drv", "other"};
  meta.has_finalizers_field = true;
  return meta;
}

ProtoWriter CsiSource() {
  return ProtoWriter()
      .Bytes(1, "drv.example.com")
      .Bytes(2, "handle-1")
      .Varint(3, 1)
      .Bytes(4, "ext4")
      .MapEntry(5, "k", "v")
      .Message(6, ProtoWriter().Bytes(1, "secret").Bytes(2, "ns"))
      .Message(7, ProtoWriter().Bytes(1, "stage"))
      .Message(8, ProtoWriter().Bytes(1, "publish"))
      .Message(9, ProtoWriter().Bytes(1, "cexpand"))
      .Message(10, ProtoWriter().Bytes(1, "nexpand"));
}

ProtoWriter PvSpec(const ProtoWriter& source) {
  return ProtoWriter()
      .Message(1, ProtoWriter().Bytes(1, "storage").Message(2, ProtoWriter().Bytes(1, "10Gi")))
      .Message(1, ProtoWriter().Bytes(1, "other").Message(2, ProtoWriter().Bytes(1, "1")))
      .Message(2, source)
      .Bytes(3, "ReadWriteOnce")
      .Message(4, ProtoWriter()
                      .Bytes(1, "PersistentVolumeClaim")
                      .Bytes(2, "default")
                      .Bytes(3, "claim")
                      .Bytes(4, "uid-c")
                      .Bytes(5, "v1")
                      .Bytes(6, "77"))
      .Bytes(5, "Delete")
      .Bytes(6, "fast")
      .Bytes(7, "ro")
      .Bytes(8, "Block")
      .Bytes(10, "gold")
      .Message(
          9,
          ProtoWriter().Message(
              1,
              ProtoWriter().Message(
                  1,
                  ProtoWriter()
                      .Message(1, ProtoWriter().Bytes(1, "zone").Bytes(2, "In").Bytes(3, "a").Bytes(
                                      3, "b"))
                      .Message(2, ProtoWriter()
                                      .Bytes(1, "metadata.name")
                                      .Bytes(2, "In")
                                      .Bytes(3, "node-1")))));
}

PersistentVolumeSpec ExpectedPvSpec() {
  PersistentVolumeSpec spec;
  spec.capacity_storage = "10Gi";
  spec.access_modes = {"ReadWriteOnce"};
  spec.volume_mode = "Block";
  spec.mount_options = {"ro"};
  spec.claim_ref = ClaimReference{"default", "claim", "uid-c", "PersistentVolumeClaim", "v1", "77"};
  spec.persistent_volume_reclaim_policy = "Delete";
  spec.storage_class_name = "fast";
  spec.volume_attributes_class_name = "gold";
  spec.node_affinity = {{.match_expressions = {{"zone", "In", {"a", "b"}}},
                         .match_fields = {{"metadata.name", "In", {"node-1"}}}}};
  CSIPersistentVolumeSource csi;
  csi.driver = "drv.example.com";
  csi.volume_handle = "handle-1";
  csi.read_only = true;
  csi.fs_type = "ext4";
  csi.volume_attributes = {{"k", "v"}};
  csi.controller_publish_secret_ref = SecretReference{"secret", "ns"};
  csi.node_stage_secret_ref = SecretReference{"stage", ""};
  csi.node_publish_secret_ref = SecretReference{"publish", ""};
  csi.controller_expand_secret_ref = SecretReference{"cexpand", ""};
  csi.node_expand_secret_ref = SecretReference{"nexpand", ""};
  spec.source = csi;
  return spec;
}

TEST(ProtoDecode, VolumeAttachmentFillsEveryHeldField) {
  auto va = ProtoWriter()
                .Message(1, Meta())
                .Message(2, ProtoWriter()
                                .Bytes(1, "drv.example.com")
                                .Message(2, ProtoWriter().Bytes(1, "pv-1").Message(
                                                2, PvSpec(ProtoWriter().Message(22, CsiSource()))))
                                .Bytes(3, "node-1"))
                .Message(3, ProtoWriter()
                                .Varint(1, 1)
                                .MapEntry(2, "dev", "/dev/xvdb")
                                .Message(3, ProtoWriter()
                                                .Message(1, Time(kSeconds))
                                                .Bytes(2, "attach failed")
                                                .Varint(3, 13))
                                .Message(4, ProtoWriter().Bytes(2, "detach failed")));
  auto decoded =
      DecodeProtobuf<VolumeAttachment>(Enveloped("storage.k8s.io/v1", "VolumeAttachment", va));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;

  VolumeAttachment expected;
  expected.metadata = ExpectedMeta();
  expected.spec.attacher = "drv.example.com";
  expected.spec.node_name = "node-1";
  expected.spec.source.persistent_volume_name = "pv-1";
  expected.spec.source.inline_volume_spec =
      std::make_shared<PersistentVolumeSpec>(ExpectedPvSpec());
  expected.status.attached = true;
  expected.status.attachment_metadata = {{"dev", "/dev/xvdb"}};
  expected.status.attach_error = VolumeError{"2026-11-24T04:22:33Z", "attach failed", 13};
  expected.status.detach_error = VolumeError{"", "detach failed", std::nullopt};
  EXPECT_EQ(*decoded, expected);
}

TEST(ProtoDecode, PersistentVolumeFillsEveryHeldField) {
  auto pv = ProtoWriter()
                .Message(1, Meta())
                .Message(2, PvSpec(ProtoWriter().Message(22, CsiSource())))
                .Message(3, ProtoWriter().Bytes(1, "Bound").Bytes(2, "msg"));
  auto decoded = DecodeProtobuf<PersistentVolume>(Enveloped("v1", "PersistentVolume", pv));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  PersistentVolume expected;
  expected.metadata = ExpectedMeta();
  expected.spec = ExpectedPvSpec();
  expected.status.phase = "Bound";
  EXPECT_EQ(*decoded, expected);
}

PersistentVolumeSpec SpecOf(const ProtoWriter& source) {
  auto pv = ProtoWriter().Message(2, ProtoWriter().Message(2, source));
  auto decoded = DecodeProtobuf<PersistentVolume>(Enveloped("v1", "PersistentVolume", pv));
  EXPECT_TRUE(decoded.ok()) << decoded.error().message;
  return decoded.ok() ? decoded->spec : PersistentVolumeSpec();
}

TEST(ProtoDecode, InTreeSourcesKeepTheFieldsTranslationReads) {
  auto gce = SpecOf(ProtoWriter().Message(
      1, ProtoWriter().Bytes(1, "pd").Bytes(2, "xfs").Varint(3, 2).Varint(4, 1)));
  EXPECT_EQ(std::get<GCEPersistentDiskVolumeSource>(gce.source),
            (GCEPersistentDiskVolumeSource{"pd", "xfs", 2, true}));
  auto aws = SpecOf(ProtoWriter().Message(2, ProtoWriter().Bytes(1, "vol").Varint(3, 1)));
  EXPECT_EQ(std::get<AWSElasticBlockStoreVolumeSource>(aws.source),
            (AWSElasticBlockStoreVolumeSource{"vol", "", 1, false}));
  auto cinder = SpecOf(ProtoWriter().Message(
      8, ProtoWriter().Bytes(1, "c").Bytes(2, "ext4").Varint(3, 1).Message(4, ProtoWriter())));
  EXPECT_EQ(std::get<CinderPersistentVolumeSource>(cinder.source),
            (CinderPersistentVolumeSource{"c", "ext4", true}));
  auto azure_disk = SpecOf(ProtoWriter().Message(
      16, ProtoWriter().Bytes(1, "name").Bytes(2, "uri").Bytes(3, "None").Varint(5, 0).Bytes(
              6, "Managed")));
  AzureDiskVolumeSource disk;
  disk.disk_name = "name";
  disk.disk_uri = "uri";
  disk.caching_mode = std::string("None");
  disk.kind = std::string("Managed");
  disk.read_only = false;
  EXPECT_EQ(std::get<AzureDiskVolumeSource>(azure_disk.source), disk);
  auto azure_file = SpecOf(
      ProtoWriter().Message(13, ProtoWriter().Bytes(1, "s").Bytes(2, "share").Bytes(4, "ns")));
  EXPECT_EQ(std::get<AzureFilePersistentVolumeSource>(azure_file.source),
            (AzureFilePersistentVolumeSource{"s", std::string("ns"), "share", false}));
  auto vsphere = SpecOf(ProtoWriter().Message(
      14, ProtoWriter().Bytes(1, "[ds] p").Bytes(2, "ext4").Bytes(3, "gold").Bytes(4, "id")));
  EXPECT_EQ(std::get<VsphereVirtualDiskVolumeSource>(vsphere.source),
            (VsphereVirtualDiskVolumeSource{"[ds] p", "ext4", "gold"}));
  auto portworx = SpecOf(ProtoWriter().Message(18, ProtoWriter().Bytes(1, "px").Varint(3, 1)));
  EXPECT_EQ(std::get<PortworxVolumeSource>(portworx.source), (PortworxVolumeSource{"px", ""}));
  auto nfs = SpecOf(ProtoWriter().Message(5, ProtoWriter().Bytes(1, "server")));
  EXPECT_EQ(std::get<OtherVolumeSource>(nfs.source), OtherVolumeSource{"nfs"});
  EXPECT_EQ(nfs.CountSources(), 1);
}

TEST(ProtoDecode, SeveralSourcesKeepTheBestRankedAndCountTheRest) {
  // csi (22) arrives after gce (1) and nfs (5): gce ranks first, as in the JSON decoder.
  auto spec = SpecOf(ProtoWriter()
                         .Message(5, ProtoWriter())
                         .Message(22, CsiSource())
                         .Message(1, ProtoWriter().Bytes(1, "pd")));
  ASSERT_TRUE(std::holds_alternative<GCEPersistentDiskVolumeSource>(spec.source));
  EXPECT_EQ(spec.CountSources(), 3);
  auto csi_over_nfs = SpecOf(ProtoWriter().Message(5, ProtoWriter()).Message(22, CsiSource()));
  EXPECT_TRUE(std::holds_alternative<CSIPersistentVolumeSource>(csi_over_nfs.source));
  EXPECT_EQ(csi_over_nfs.CountSources(), 2);
}

TEST(ProtoDecode, TimeIsTheJsonTextZeroTimeIsEmptyAndOutOfRangeIsAnError) {
  auto meta_with = [](const ProtoWriter& time) {
    return DecodeProtobuf<PersistentVolume>(Enveloped(
        "v1", "PersistentVolume", ProtoWriter().Message(1, ProtoWriter().Message(8, time))));
  };
  EXPECT_EQ(meta_with(ProtoWriter())->metadata.creation_timestamp, "");
  EXPECT_EQ(meta_with(Time(-62135596800))->metadata.creation_timestamp, "");
  EXPECT_EQ(meta_with(Time(0))->metadata.creation_timestamp, "1970-01-01T00:00:00Z");
  EXPECT_EQ(meta_with(Time(-1))->metadata.creation_timestamp, "1969-12-31T23:59:59Z");
  EXPECT_EQ(meta_with(Time(951782400))->metadata.creation_timestamp, "2000-02-29T00:00:00Z");
  EXPECT_EQ(meta_with(Time(253402300799))->metadata.creation_timestamp, "9999-12-31T23:59:59Z");
  auto too_late = meta_with(Time(253402300800));
  ASSERT_FALSE(too_late.ok());
  EXPECT_EQ(too_late.error().message,
            "decoding PersistentVolume (protobuf): metadata.creationTimestamp: time 253402300800 s "
            "is outside years 1-9999");
}

TEST(ProtoDecode, ListReadsListMetaAndItems) {
  auto list = ProtoWriter()
                  .Message(1, ProtoWriter().Bytes(2, "99").Bytes(3, "next").Varint(4, 5))
                  .Message(2, ProtoWriter().Message(1, ProtoWriter().Bytes(1, "a")))
                  .Message(2, ProtoWriter().Message(1, ProtoWriter().Bytes(1, "b")));
  auto decoded = DecodeProtobuf<ObjectList<VolumeAttachment>>(
      Enveloped("storage.k8s.io/v1", "VolumeAttachmentList", list));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(decoded->metadata, (ListMeta{"99", "next", 5}));
  ASSERT_EQ(decoded->items.size(), 2u);
  EXPECT_EQ(decoded->items[1].metadata.name, "b");
}

TEST(ProtoDecode, StatusReadsCodeReasonAndMessage) {
  auto status = ProtoWriter()
                    .Message(1, ProtoWriter())
                    .Bytes(2, "Failure")
                    .Bytes(3, "too old resource version")
                    .Bytes(4, "Expired")
                    .Varint(6, 410);
  auto decoded = DecodeProtobuf<Status>(Enveloped("v1", "Status", status));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(*decoded, (Status{410, "Expired", "too old resource version"}));
}

TEST(ProtoDecode, EnvelopeOfAnotherKindOrWithoutMagicIsRefused) {
  auto pv = ProtoWriter().Message(1, ProtoWriter().Bytes(1, "x"));
  auto wrong_kind = DecodeProtobuf<VolumeAttachment>(Enveloped("v1", "PersistentVolume", pv));
  ASSERT_FALSE(wrong_kind.ok());
  EXPECT_EQ(wrong_kind.error().message,
            "decoding VolumeAttachment (protobuf): expected storage.k8s.io/v1 VolumeAttachment, "
            "got \"v1\" \"PersistentVolume\"");
  auto json = DecodeProtobuf<PersistentVolume>(R"({"kind":"PersistentVolume"})");
  ASSERT_FALSE(json.ok());
  EXPECT_EQ(json.error().message,
            "decoding PersistentVolume (protobuf): not a Kubernetes protobuf object (no "
            "\"k8s\\0\" prefix)");
  auto gzipped = std::string("k8s\0", 4) + ProtoWriter().Bytes(3, "gzip").bytes();
  EXPECT_FALSE(DecodeProtobuf<PersistentVolume>(gzipped).ok());
}

TEST(ProtoDecode, ErrorInsideANestedFieldNamesItsPath) {
  auto va = ProtoWriter().Message(
      3,
      ProtoWriter().Message(3, ProtoWriter().Message(1, ProtoWriter().Bytes(1, "not a varint"))));
  auto decoded =
      DecodeProtobuf<VolumeAttachment>(Enveloped("storage.k8s.io/v1", "VolumeAttachment", va));
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error().message,
            "decoding VolumeAttachment (protobuf): status.attachError.time.seconds: field 1: "
            "length-delimited value where a varint is expected");
}

TEST(ProtoDecode, ScalarOfTheWrongWireTypeInAKnownFieldIsRefused) {
  auto pv = ProtoWriter().Message(1, ProtoWriter().Varint(1, 5));  // name as a varint
  EXPECT_FALSE(DecodeProtobuf<PersistentVolume>(Enveloped("v1", "PersistentVolume", pv)).ok());
}

}  // namespace
}  // namespace kube
