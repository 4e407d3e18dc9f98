#include "tests/fault_csi_driver/volume_rpcs.h"

#include <variant>

#include "tests/fault_csi_driver/status_codes.h"

namespace faultdriver {
namespace {

using Capability = csi::v1::ControllerServiceCapability::RPC;

// The capacity of a volume whose request leaves the size to the driver.
constexpr int64_t kDefaultCapacityBytes = int64_t{1} << 30;

const VolumeRegistry::Context& CreatedVolumeContext() {
  static const VolumeRegistry::Context context = {{"createdBy", "fault-csi-driver"}};
  return context;
}

// The capacity a new volume gets for `range`, or the error to answer with.
std::variant<int64_t, grpc::Status> CapacityFor(const csi::v1::CapacityRange& range) {
  const int64_t required = range.required_bytes();
  const int64_t limit = range.limit_bytes();
  if (required < 0 || limit < 0) {
    return InvalidArgument("capacity_range bytes must not be negative");
  }
  if (limit != 0 && limit < required) {
    return grpc::Status(grpc::StatusCode::OUT_OF_RANGE, "limit_bytes " + std::to_string(limit) +
                                                            " is below required_bytes " +
                                                            std::to_string(required));
  }
  if (required != 0) return required;
  return limit != 0 && limit < kDefaultCapacityBytes ? limit : kDefaultCapacityBytes;
}

// A repeated message field as the state file keeps it.
template <typename Message>
nlohmann::json MessagesJson(const google::protobuf::RepeatedPtrField<Message>& messages) {
  nlohmann::json list = nlohmann::json::array();
  for (const Message& message : messages) list.push_back(MessageJson(message));
  return list;
}

// A message field as the state file keeps it: null when the request left it out.
template <typename Message>
nlohmann::json OptionalMessageJson(bool present, const Message& message) {
  return present ? MessageJson(message) : nlohmann::json(nullptr);
}

std::vector<std::string> SecretKeyList(
    const google::protobuf::Map<std::string, std::string>& secrets) {
  return SecretKeys(secrets).get<std::vector<std::string>>();
}

}  // namespace

grpc::Status VolumeRpcs::CreateVolume(grpc::ServerContext* context,
                                      const csi::v1::CreateVolumeRequest& request,
                                      csi::v1::CreateVolumeResponse* response) {
  CallScope call(driver_, context, "CreateVolume");
  const bool named = !request.name().empty();
  call.SetVolumeTarget(request.name(), named ? VolumeRegistry::VolumeIdFor(request.name()) : "");
  call.request()["name"] = request.name();
  call.request()["capacity_range"] = {{"required_bytes", request.capacity_range().required_bytes()},
                                      {"limit_bytes", request.capacity_range().limit_bytes()}};
  call.request()["volume_capabilities"] = MessagesJson(request.volume_capabilities());
  call.request()["parameters"] = StringMap(request.parameters());
  call.request()["mutable_parameters"] = StringMap(request.mutable_parameters());
  call.request()["secrets"] = SecretKeys(request.secrets());
  call.request()["volume_content_source"] =
      OptionalMessageJson(request.has_volume_content_source(), request.volume_content_source());
  call.request()["accessibility_requirements"] = OptionalMessageJson(
      request.has_accessibility_requirements(), request.accessibility_requirements());
  if (named) driver_.registry->NoteCreateCall(request.name());

  if (auto early = call.Begin()) return call.Finish(*early);
  grpc::Status status = Create(request, call, response->mutable_volume());
  if (status.ok()) {
    const csi::v1::Volume& volume = response->volume();
    call.response()["volume"] = {
        {"volume_id", volume.volume_id()},
        {"capacity_bytes", volume.capacity_bytes()},
        {"volume_context", StringMap(volume.volume_context())},
        {"accessible_topology", MessagesJson(volume.accessible_topology())}};
  }
  if (call.Answer(status).ok()) driver_.registry->NoteCreateOk(request.name());
  return call.Finish(status);
}

grpc::Status VolumeRpcs::Create(const csi::v1::CreateVolumeRequest& request, const CallScope& call,
                                csi::v1::Volume* volume) {
  if (!driver_.options->Advertises(Capability::CREATE_DELETE_VOLUME)) {
    return NotAdvertised("CREATE_DELETE_VOLUME");
  }
  if (request.name().empty()) return InvalidArgument("volume name missing in request");
  if (request.volume_capabilities().empty()) {
    return InvalidArgument("volume capabilities missing in request");
  }
  std::variant<int64_t, grpc::Status> capacity = CapacityFor(request.capacity_range());
  if (auto* error = std::get_if<grpc::Status>(&capacity)) return *error;
  const std::optional<FaultRule>& fault = call.fault();

  VolumeRegistry::CreateResult result = driver_.registry->Create(
      {.name = request.name(),
       .capacity_bytes =
           fault && fault->capacity_bytes ? *fault->capacity_bytes : std::get<int64_t>(capacity),
       .volume_context = CreatedVolumeContext(),
       .parameters = {request.parameters().begin(), request.parameters().end()},
       .mutable_parameters = {request.mutable_parameters().begin(),
                              request.mutable_parameters().end()},
       .secret_keys = SecretKeyList(request.secrets()),
       .content_source = call.request().at("volume_content_source"),
       .accessibility_requirements = call.request().at("accessibility_requirements"),
       .caller_gave_up = call.CallerGaveUp()});
  if (result.outcome == VolumeCreateOutcome::kIdTaken) {
    return grpc::Status(
        grpc::StatusCode::ALREADY_EXISTS,
        "ID " + result.volume_id + " belongs to a volume CreateVolume did not make");
  }
  volume->set_volume_id(result.volume_id);
  volume->set_capacity_bytes(result.capacity_bytes);
  volume->mutable_volume_context()->insert(CreatedVolumeContext().begin(),
                                           CreatedVolumeContext().end());
  if (request.has_volume_content_source()) {
    *volume->mutable_content_source() = request.volume_content_source();
  }
  if (driver_.options->accessible_topology) {
    const csi::v1::TopologyRequirement& where = request.accessibility_requirements();
    if (!where.preferred().empty()) {
      *volume->add_accessible_topology() = where.preferred(0);
    } else if (!where.requisite().empty()) {
      *volume->add_accessible_topology() = where.requisite(0);
    }
  }
  return grpc::Status::OK;
}

grpc::Status VolumeRpcs::DeleteVolume(grpc::ServerContext* context,
                                      const csi::v1::DeleteVolumeRequest& request) {
  CallScope call(driver_, context, "DeleteVolume");
  call.SetVolumeTarget(driver_.registry->CreatedName(request.volume_id()).value_or(""),
                       request.volume_id());
  call.request()["volume_id"] = request.volume_id();
  call.request()["secrets"] = SecretKeys(request.secrets());
  if (!request.volume_id().empty()) {
    driver_.registry->NoteDeleteCall(request.volume_id(), SecretKeyList(request.secrets()));
  }

  if (auto early = call.Begin()) return call.Finish(*early);
  grpc::Status status = Delete(request, call);
  if (call.Answer(status).ok()) driver_.registry->NoteDeleteOk(request.volume_id());
  return call.Finish(status);
}

grpc::Status VolumeRpcs::Delete(const csi::v1::DeleteVolumeRequest& request, CallScope& call) {
  if (!driver_.options->Advertises(Capability::CREATE_DELETE_VOLUME)) {
    return NotAdvertised("CREATE_DELETE_VOLUME");
  }
  if (request.volume_id().empty()) return InvalidArgument("volume ID missing in request");
  const VolumeDeleteOutcome outcome = driver_.registry->Delete(request.volume_id());
  if (outcome == VolumeDeleteOutcome::kPublished) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                        "volume " + request.volume_id() + " is published to a node");
  }
  call.response()["deleted"] = outcome == VolumeDeleteOutcome::kDeleted;
  return grpc::Status::OK;
}

}  // namespace faultdriver
