// resizer/claim_pod.h: a Pod decoded from protobuf keeps what the in-use gate
// reads (its name, the claims its volumes name, its phase) and skips the rest
// (containers, other volume kinds, status beyond the phase); and it decodes
// to what the same Pod gives as JSON.
#include "resizer/claim_pod.h"

#include <gtest/gtest.h>

#include "kube/api/codec.h"
#include "kube/api/proto/decode.h"
#include "tests/support/proto_writer.h"

namespace resizer {
namespace {

using testsupport::Enveloped;
using testsupport::ProtoWriter;

// Volume {name = 1, volumeSource = 2}.
ProtoWriter ClaimVolume(std::string_view name, std::string_view claim) {
  return ProtoWriter().Bytes(1, name).Message(
      2, ProtoWriter().Message(10, ProtoWriter().Bytes(1, claim).Varint(2, 1)));
}

ProtoWriter EmptyDirVolume(std::string_view name) {
  return ProtoWriter().Bytes(1, name).Message(2, ProtoWriter().Message(3, ProtoWriter()));
}

ProtoWriter RunningPod() {
  const ProtoWriter container = ProtoWriter().Bytes(1, "app").Bytes(2, "registry/app:v1");
  return ProtoWriter()
      .Message(1, ProtoWriter().Bytes(1, "web-0").Bytes(3, "apps").Bytes(6, "7"))
      .Message(2, ProtoWriter()
                      .Message(1, EmptyDirVolume("scratch"))
                      .Message(1, ClaimVolume("data", "data-web-0"))
                      .Message(2, container))
      .Message(3, ProtoWriter().Bytes(1, "Running").Bytes(6, "10.0.0.1"));
}

TEST(ClaimPodTest, ProtobufPodKeepsNameClaimsAndPhase) {
  base::Result<ClaimPod> pod = kube::DecodeProtobuf<ClaimPod>(Enveloped("v1", "Pod", RunningPod()));
  ASSERT_TRUE(pod.ok()) << pod.error().message;
  EXPECT_EQ(pod->metadata.name, "web-0");
  EXPECT_EQ(pod->metadata.namespace_, "apps");
  EXPECT_EQ(pod->metadata.resource_version, "7");
  ASSERT_EQ(pod->spec.volumes.size(), 2u);
  EXPECT_EQ(pod->spec.volumes[0].claim_name, "");
  EXPECT_EQ(pod->spec.volumes[1].claim_name, "data-web-0");
  EXPECT_EQ(pod->status.phase, "Running");
  EXPECT_TRUE(pod->UsesClaim("data-web-0"));
  EXPECT_FALSE(pod->Ended());
}

TEST(ClaimPodTest, ProtobufAndJsonOfOnePodDecodeAlike) {
  base::Result<ClaimPod> from_proto =
      kube::DecodeProtobuf<ClaimPod>(Enveloped("v1", "Pod", RunningPod()));
  base::Result<ClaimPod> from_json = kube::DecodeObject<ClaimPod>(R"({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "web-0", "namespace": "apps", "resourceVersion": "7"},
    "spec": {"volumes": [{"name": "scratch", "emptyDir": {}},
                         {"name": "data", "persistentVolumeClaim": {"claimName": "data-web-0", "readOnly": true}}],
             "containers": [{"name": "app", "image": "registry/app:v1"}]},
    "status": {"phase": "Running", "hostIP": "10.0.0.1"}})");
  ASSERT_TRUE(from_proto.ok()) << from_proto.error().message;
  ASSERT_TRUE(from_json.ok()) << from_json.error().message;
  EXPECT_EQ(*from_proto, *from_json);
}

}  // namespace
}  // namespace resizer
