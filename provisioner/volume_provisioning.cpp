#include "provisioner/volume_provisioning.h"

#include <grpcpp/support/status_code_enum.h>

#include <utility>

#include "base/log.h"
#include "csi/errors.h"
#include "provisioner/provisioned_volume.h"

namespace provisioner {
namespace {

base::Result<Secrets> ReadProvisionerSecret(ProvisionerApi& api,
                                            const std::optional<kube::SecretReference>& ref) {
  if (!ref) return Secrets();
  auto secret = api.GetSecret(ref->namespace_, ref->name);
  if (!secret.ok()) {
    return base::Error("error getting secret " + ref->name + " in namespace " + ref->namespace_ +
                       ": " + secret.error().message);
  }
  return Secrets(secret->data.begin(), secret->data.end());
}

// §3.8: a volume smaller than asked for is deleted again (up to five
// tries); the attempt stays in background so a failed cleanup is retried.
ProvisionFailure TooSmall(const ProvisioningContext& context, const csi::v1::Volume& volume,
                          const std::string& volume_name, int64_t requested,
                          const Secrets& secrets) {
  constexpr int kCleanupTries = 5;
  std::string message = "created volume capacity " + std::to_string(volume.capacity_bytes()) +
                        " less than requested capacity " + std::to_string(requested);
  base::Status cleanup = base::Status::Ok();
  for (int attempt = 0; attempt < kCleanupTries; ++attempt) {
    cleanup = context.driver.DeleteVolume(volume.volume_id(), secrets);
    if (cleanup.ok()) break;
  }
  if (!cleanup.ok()) {
    message += ". Cleanup of volume " + volume_name +
               " failed, volume is orphaned: " + cleanup.error().message;
  }
  return {base::Error(message), ProvisioningState::kInBackground};
}

}  // namespace

ProvisioningState StateOfCreateError(const base::Error& error, bool may_reschedule) {
  if (!error.IsGrpc()) return ProvisioningState::kInBackground;
  switch (error.code) {
    case grpc::RESOURCE_EXHAUSTED:
      return may_reschedule ? ProvisioningState::kReschedule : ProvisioningState::kFinished;
    case grpc::CANCELLED:
    case grpc::DEADLINE_EXCEEDED:
    case grpc::UNAVAILABLE:
    case grpc::ABORTED:
      return ProvisioningState::kInBackground;
    default:
      return ProvisioningState::kFinished;
  }
}

ProvisionResult ProvisionVolume(const ProvisioningContext& context,
                                const kube::PersistentVolumeClaim& claim,
                                const kube::StorageClass& storage_class) {
  VolumeRequestResult prepared =
      MakeVolumeRequest(claim, storage_class, context.capabilities, context.request_options);
  if (auto* failure = std::get_if<ProvisionFailure>(&prepared)) return std::move(*failure);
  if (std::holds_alternative<LeftToPopulator>(prepared)) return LeftToPopulator{};
  VolumeRequest& request = std::get<VolumeRequest>(prepared);
  if (request.attributes_class) {
    return ProvisionFailure{base::Error("VolumeAttributesClass " + *request.attributes_class +
                                        " cannot be applied: this provisioner does not support "
                                        "VolumeAttributesClass yet"),
                            ProvisioningState::kFinished};
  }
  auto secrets = ReadProvisionerSecret(context.api, request.provisioner_secret);
  if (!secrets.ok()) return ProvisionFailure{secrets.error(), ProvisioningState::kNoChange};
  csi::v1::CreateVolumeRequest with_secrets = request.request;
  with_secrets.mutable_secrets()->insert(secrets->begin(), secrets->end());

  auto volume = context.driver.CreateVolume(with_secrets);
  if (!volume.ok()) {
    ProvisionFailure failure{volume.error(),
                             StateOfCreateError(volume.error(), /*may_reschedule=*/false)};
    failure.infeasible = csi::IsGrpcCode(volume.error(), grpc::INVALID_ARGUMENT);
    return failure;
  }
  const int64_t requested = request.request.capacity_range().required_bytes();
  int64_t capacity = volume->capacity_bytes();
  // CSI allows 0 for "unknown"; the API server does not.
  if (capacity == 0) capacity = requested;
  if (capacity < requested) {
    return TooSmall(context, *volume, request.request.name(), requested, *secrets);
  }
  return MakeProvisionedVolume(
      {.claim = claim,
       .storage_class = storage_class,
       .request = request,
       .volume = *volume,
       .capacity_bytes = capacity,
       .driver_name = context.driver_name,
       .identity = context.identity,
       .controller_publish_readonly = context.controller_publish_readonly});
}

}  // namespace provisioner
