// The fault driver as a plain provisioning driver: CreateVolume's idempotency
// and capacity rules, DeleteVolume, how created volumes join the known ones,
// and what the state file records about them.
#include "tests/unit/fault_csi_driver/volume_fixture.h"

namespace faultdriver {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Pair;

class FaultDriverVolumesTest : public VolumeFixture {};

TEST_F(FaultDriverVolumesTest, CreateVolumeAnswersTheNamesVolumeAndEchoesTheContentSource) {
  StartDriver();
  csi::v1::CreateVolumeRequest request = CreateRequest("pvc-1", 5 * kGiB);
  request.mutable_volume_content_source()->mutable_snapshot()->set_snapshot_id("handle-9");
  csi::v1::CreateVolumeResponse response;
  ASSERT_TRUE(CreateVolume(request, &response).ok());

  const csi::v1::Volume& volume = response.volume();
  EXPECT_EQ(volume.volume_id(), "vol-pvc-1");
  EXPECT_EQ(volume.capacity_bytes(), 5 * kGiB);
  EXPECT_THAT(volume.volume_context(), ElementsAre(Pair("createdBy", "fault-csi-driver")));
  EXPECT_EQ(volume.content_source().snapshot().snapshot_id(), "handle-9");
  EXPECT_THAT(volume.accessible_topology(), IsEmpty());

  EXPECT_THAT(ListAll(), ElementsAre(Pair("vol-pvc-1", IsEmpty())));
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["existing_volumes"], (nlohmann::json{"vol-pvc-1"}));
  const nlohmann::json& entry = state["volumes_by_name"]["pvc-1"];
  EXPECT_EQ(entry["volume_id"], "vol-pvc-1");
  EXPECT_EQ(entry["exists"], true);
  EXPECT_EQ(entry["create_calls"], 1);
  EXPECT_EQ(entry["create_ok"], 1);
  EXPECT_EQ(entry["capacity_bytes"], 5 * kGiB);
  EXPECT_EQ(entry["created_after_caller_gave_up"], false);
  EXPECT_EQ(state["volumes"]["vol-pvc-1"]["capacity_bytes"], 5 * kGiB);
  EXPECT_EQ(state["volumes"]["vol-pvc-1"]["exists"], true);
}

// --accessible-topology: the capability is advertised and the volume is
// made where the request prefers (else in its first requisite topology).
TEST_F(FaultDriverVolumesTest, AccessibleTopologyPlacesTheVolumeInTheFirstPreferredTopology) {
  StartDriver({"--accessible-topology"});
  csi::v1::GetPluginCapabilitiesResponse plugin;
  ASSERT_TRUE(identity_->GetPluginCapabilities(Context().get(), {}, &plugin).ok());
  bool advertised = false;
  for (const auto& capability : plugin.capabilities()) {
    advertised |= capability.service().type() ==
                  csi::v1::PluginCapability::Service::VOLUME_ACCESSIBILITY_CONSTRAINTS;
  }
  EXPECT_TRUE(advertised);

  csi::v1::CreateVolumeRequest request = CreateRequest("pvc-1");
  auto* where = request.mutable_accessibility_requirements();
  (*where->add_requisite()->mutable_segments())["zone"] = "z1";
  (*where->add_requisite()->mutable_segments())["zone"] = "z2";
  (*where->add_preferred()->mutable_segments())["zone"] = "z2";
  csi::v1::CreateVolumeResponse response;
  ASSERT_TRUE(CreateVolume(request, &response).ok());
  ASSERT_EQ(response.volume().accessible_topology_size(), 1);
  EXPECT_EQ(response.volume().accessible_topology(0).segments().at("zone"), "z2");
  EXPECT_EQ(ReadState()["calls"]
                .back()["response"]["volume"]["accessible_topology"][0]["segments"]["zone"],
            "z2");

  csi::v1::CreateVolumeRequest requisite_only = CreateRequest("pvc-2");
  *requisite_only.mutable_accessibility_requirements()->mutable_requisite() = where->requisite();
  ASSERT_TRUE(CreateVolume(requisite_only, &response).ok());
  EXPECT_EQ(response.volume().accessible_topology(0).segments().at("zone"), "z1");

  ASSERT_TRUE(CreateVolume(CreateRequest("pvc-3"), &response).ok());
  EXPECT_THAT(response.volume().accessible_topology(), IsEmpty());
}

// Nothing is compared: the retry of a call that timed out must find its
// volume whatever else changed.
TEST_F(FaultDriverVolumesTest, SameNameAnswersTheSameVolume) {
  StartDriver();
  csi::v1::CreateVolumeResponse first, second;
  ASSERT_TRUE(CreateVolume(CreateRequest("pvc-1", 2 * kGiB), &first).ok());
  ASSERT_TRUE(CreateVolume(CreateRequest("pvc-1", 3 * kGiB), &second).ok());
  EXPECT_EQ(second.volume().volume_id(), first.volume().volume_id());
  EXPECT_EQ(second.volume().capacity_bytes(), 2 * kGiB);

  nlohmann::json state = ReadState();
  EXPECT_EQ(state["existing_volumes"].size(), 1u);
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["create_calls"], 2);
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["create_ok"], 2);
}

struct CapacityCase {
  std::string name;
  int64_t required_bytes;
  int64_t limit_bytes;
  grpc::StatusCode code;
  int64_t capacity_bytes;  // when OK
};

// Test names say it; the bytes gtest would print say nothing.
void PrintTo(const CapacityCase& test, std::ostream* out) { *out << test.name; }

class CreateVolumeCapacityTest : public VolumeFixture,
                                 public ::testing::WithParamInterface<CapacityCase> {};

TEST_P(CreateVolumeCapacityTest, CapacityFollowsTheRange) {
  StartDriver();
  const CapacityCase& test = GetParam();
  csi::v1::CreateVolumeRequest request = CreateRequest("pvc-1");
  request.mutable_capacity_range()->set_required_bytes(test.required_bytes);
  request.mutable_capacity_range()->set_limit_bytes(test.limit_bytes);
  csi::v1::CreateVolumeResponse response;
  grpc::Status status = CreateVolume(request, &response);
  ASSERT_EQ(status.error_code(), test.code) << status.error_message();
  if (status.ok()) {
    EXPECT_EQ(response.volume().capacity_bytes(), test.capacity_bytes);
  } else {
    EXPECT_THAT(ReadState()["existing_volumes"], IsEmpty());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Ranges, CreateVolumeCapacityTest,
    ::testing::Values(
        CapacityCase{"NoRangeGetsOneGiB", 0, 0, grpc::StatusCode::OK, kGiB},
        CapacityCase{"NoRequiredGetsOneGiBAtMostTheLimit", 0, 1 << 20, grpc::StatusCode::OK,
                     1 << 20},
        CapacityCase{"RequiredIsGranted", 5 * kGiB, 0, grpc::StatusCode::OK, 5 * kGiB},
        CapacityCase{"RequiredWithinTheLimit", 5 * kGiB, 10 * kGiB, grpc::StatusCode::OK, 5 * kGiB},
        CapacityCase{"LimitBelowRequiredIsOutOfRange", 10 * kGiB, 5 * kGiB,
                     grpc::StatusCode::OUT_OF_RANGE, 0},
        CapacityCase{"NegativeIsInvalid", -1, 0, grpc::StatusCode::INVALID_ARGUMENT, 0}),
    [](const auto& info) { return info.param.name; });

TEST_F(FaultDriverVolumesTest, RequiredFieldsMissingAreInvalidArgument) {
  StartDriver();
  csi::v1::CreateVolumeRequest no_name = CreateRequest("");
  csi::v1::CreateVolumeRequest no_capability = CreateRequest("pvc-1");
  no_capability.clear_volume_capabilities();
  EXPECT_EQ(CreateVolume(no_name).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(CreateVolume(no_capability).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(DeleteVolume("").error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_volumes"], IsEmpty());
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["create_calls"], 1);
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["create_ok"], 0);
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["volume_id"], "");
}

TEST_F(FaultDriverVolumesTest, DeleteRemovesTheVolumeAndAnUnknownIdSucceeds) {
  StartDriver();
  const std::string id = CreateVolumeId("pvc-1");
  csi::v1::DeleteVolumeRequest request;
  request.set_volume_id(id);
  (*request.mutable_secrets())["password"] = "s3cr3t-value";
  csi::v1::DeleteVolumeResponse response;
  ASSERT_TRUE(controller_->DeleteVolume(Context().get(), request, &response).ok());
  EXPECT_TRUE(DeleteVolume(id).ok());
  EXPECT_TRUE(DeleteVolume("never-made").ok());

  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_volumes"], IsEmpty());
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["exists"], false);
  const nlohmann::json& volume = state["volumes"][id];
  EXPECT_EQ(volume["exists"], false);
  EXPECT_EQ(volume["delete_calls"], 2);
  EXPECT_EQ(volume["delete_ok"], 2);
  EXPECT_EQ(volume["delete_secrets"], nlohmann::json::array());  // the latest call's
  EXPECT_EQ(state["volumes"]["never-made"]["delete_calls"], 1);
  EXPECT_EQ(state["volumes"]["never-made"]["exists"], false);
  EXPECT_EQ(state["calls"][1]["request"]["secrets"], (nlohmann::json{"password"}));
  EXPECT_EQ(state["calls"][1]["response"]["deleted"], true);
  EXPECT_EQ(state["calls"][2]["response"]["deleted"], false);
  EXPECT_THAT(ReadText(StatePath()), Not(HasSubstr("s3cr3t-value")));
}

// Gone for good: not listed, not attachable, until the name is created again.
TEST_F(FaultDriverVolumesTest, DeletedVolumeIsUnknownUntilCreatedAgain) {
  StartDriver();
  const std::string id = CreateVolumeId("pvc-1");
  ASSERT_TRUE(DeleteVolume(id).ok());
  EXPECT_THAT(ListAll(), IsEmpty());
  EXPECT_EQ(Publish(id).error_code(), grpc::StatusCode::NOT_FOUND);
  // DeleteVolume of an ID the back end never had changes nothing.
  ASSERT_TRUE(DeleteVolume("never-made").ok());
  EXPECT_TRUE(Publish("never-made").ok());

  EXPECT_EQ(CreateVolumeId("pvc-1"), id);
  EXPECT_TRUE(Publish(id).ok());
  EXPECT_THAT(ListAll(), ElementsAre(Pair("never-made", Nodes{kNode}), Pair(id, Nodes{kNode})));
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["existing_volumes"], (nlohmann::json{id}));
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["exists"], true);
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["create_ok"], 2);
}

TEST_F(FaultDriverVolumesTest, PublishedVolumeIsNotDeleted) {
  StartDriver();
  const std::string id = CreateVolumeId("pvc-1");
  ASSERT_TRUE(Publish(id).ok());
  EXPECT_EQ(DeleteVolume(id).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(Unpublish(id).ok());
  EXPECT_TRUE(DeleteVolume(id).ok());
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["volumes"][id]["delete_calls"], 2);
  EXPECT_EQ(state["volumes"][id]["delete_ok"], 1);
}

TEST_F(FaultDriverVolumesTest, NameWhoseIdIsADeclaredVolumeIsAlreadyExists) {
  StartDriver({"--volumes=vol-taken:0"});
  grpc::Status status = CreateVolume("taken");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_THAT(status.error_message(), HasSubstr("vol-taken"));
  EXPECT_THAT(ReadState()["existing_volumes"], IsEmpty());
}

TEST_F(FaultDriverVolumesTest, StateFileRecordsWhatCreateSentWithoutSecretValues) {
  StartDriver();
  csi::v1::CreateVolumeRequest request = CreateRequest("pvc-1", kGiB);
  (*request.mutable_parameters())["type"] = "pd-ssd";
  (*request.mutable_mutable_parameters())["iops"] = "3000";
  (*request.mutable_secrets())["token"] = "s3cr3t-value";
  request.mutable_volume_content_source()->mutable_volume()->set_volume_id("vol-source");
  (*request.mutable_accessibility_requirements()->add_requisite()->mutable_segments())["zone"] =
      "a";
  ASSERT_TRUE(CreateVolume(request).ok());

  nlohmann::json state = ReadState();
  const nlohmann::json& entry = state["volumes_by_name"]["pvc-1"];
  EXPECT_EQ(entry["parameters"], (nlohmann::json{{"type", "pd-ssd"}}));
  EXPECT_EQ(entry["mutable_parameters"], (nlohmann::json{{"iops", "3000"}}));
  EXPECT_EQ(entry["secrets"], (nlohmann::json{"token"}));
  EXPECT_EQ(entry["volume_content_source"]["volume"]["volume_id"], "vol-source");
  EXPECT_EQ(entry["accessibility_requirements"]["requisite"][0]["segments"]["zone"], "a");

  const nlohmann::json& call = state["calls"][0];
  EXPECT_EQ(call["method"], "CreateVolume");
  EXPECT_EQ(call["request"]["name"], "pvc-1");
  EXPECT_EQ(call["request"]["capacity_range"]["required_bytes"], kGiB);
  EXPECT_EQ(call["request"]["volume_capabilities"][0]["access_mode"]["mode"], "SINGLE_NODE_WRITER");
  EXPECT_EQ(call["request"]["secrets"], (nlohmann::json{"token"}));
  EXPECT_EQ(call["response"]["volume"]["volume_id"], "vol-pvc-1");
  EXPECT_EQ(call["response"]["volume"]["capacity_bytes"], kGiB);
  EXPECT_THAT(ReadText(StatePath()), Not(HasSubstr("s3cr3t-value")));
}

}  // namespace
}  // namespace faultdriver
