#include "bench/floor_provisioner.h"

#include <grpcpp/grpcpp.h>

#include "bench/objects.h"
#include "kube/client/api_error.h"
#include "provisioner/names.h"
#include "provisioner/provisioned_volume.h"
#include "provisioner/volume_request.h"

namespace bench {
namespace {

std::string ProvisionKeyOf(const kube::PersistentVolumeClaim& claim) {
  return claim.metadata.namespace_ + "/" + claim.metadata.name;
}

bool AnnotatedForDriver(const kube::PersistentVolumeClaim& claim) {
  auto it = claim.metadata.annotations.find(provisioner::kStorageProvisionerAnnotation);
  return it != claim.metadata.annotations.end() && it->second == kDriverName;
}

// What the fault driver advertises that shapes the request: a controller
// that creates volumes.
const csi::Capabilities& FloorDriverCapabilities() {
  static const csi::Capabilities capabilities = {
      .plugin_services = {csi::PluginService::CONTROLLER_SERVICE},
      .controller_rpcs = {csi::ControllerRpc::CREATE_DELETE_VOLUME}};
  return capabilities;
}

}  // namespace

FloorProvisioner::FloorProvisioner(kube::Client& client, FloorProvisionerOptions options)
    : client_(client),
      options_(std::move(options)),
      csi_(csi::v1::Controller::NewStub(grpc::CreateChannel("unix://" + options_.csi_socket,
                                                            grpc::InsecureChannelCredentials()))),
      pool_(
          {.name = "floor-provisions",
           .workers = static_cast<uint32_t>(options_.workers),
           .retry_start = std::chrono::milliseconds(5),
           .retry_max = std::chrono::milliseconds(1000)},
          kube::PersistentVolumeClaim::kFacts, base::Clock::Real(),
          [this](const std::string& key) { return kube::DoneOr(Sync(key)); },
          [](const std::string&) { return kube::WorkQueue::Lane::kNormal; }) {}

base::Result<std::unique_ptr<FloorProvisioner>> FloorProvisioner::Start(
    kube::Client& client, FloorProvisionerOptions options) {
  std::unique_ptr<FloorProvisioner> floor(new FloorProvisioner(client, std::move(options)));
  if (auto status = floor->StartWatches(); !status.ok()) return status.error();
  floor->runner_ = std::jthread([f = floor.get()](std::stop_token stop) { f->pool_.Run(stop); });
  return floor;
}

base::Status FloorProvisioner::StartWatches() {
  // Classes and volumes first: the claims' first syncs find them.
  auto classes = ObjectWatch<kube::StorageClass>::Start(
      client_, [this](const kube::StorageClass& storage_class, bool deleted) {
        deleted ? classes_.Erase(storage_class.metadata.name, storage_class)
                : classes_.Upsert(storage_class.metadata.name, storage_class);
      });
  if (!classes.ok()) return classes.error();
  class_watch_ = std::move(*classes);
  auto volumes = ObjectWatch<kube::PersistentVolume>::Start(
      client_, [this](const kube::PersistentVolume& volume, bool deleted) {
        NoteVolume(volume.metadata.name, !deleted);
      });
  if (!volumes.ok()) return volumes.error();
  volume_watch_ = std::move(*volumes);
  auto claims = WatchPrimary<kube::PersistentVolumeClaim>(client_, claims_, pool_, ProvisionKeyOf);
  if (!claims.ok()) return claims.error();
  claim_watch_ = std::move(*claims);
  return {};
}

FloorProvisioner::~FloorProvisioner() {
  claim_watch_.reset();
  volume_watch_.reset();
  class_watch_.reset();
  runner_.request_stop();
  if (runner_.joinable()) runner_.join();
}

base::Status FloorProvisioner::Sync(const std::string& key) {
  auto claim = claims_.Get(key);
  if (!claim || !claim->spec.volume_name.empty() || !AnnotatedForDriver(*claim)) return {};
  auto storage_class = classes_.Get(provisioner::ClassOfClaim(*claim));
  if (!storage_class) return base::Error("the class of claim " + key + " is not in the cache");
  if (storage_class->provisioner != kDriverName) return {};
  const std::string volume_name = provisioner::VolumeName("pvc", claim->metadata.uid.str(), -1);
  if (VolumeExists(volume_name)) return {};
  return Provision(*claim, *storage_class, volume_name);
}

base::Status FloorProvisioner::Provision(const kube::PersistentVolumeClaim& claim,
                                         const kube::StorageClass& storage_class,
                                         const std::string& volume_name) {
  auto made = provisioner::MakeVolumeRequest(claim, storage_class, FloorDriverCapabilities(), {});
  auto* request = std::get_if<provisioner::VolumeRequest>(&made);
  if (!request) return base::Error("no CreateVolume request for claim " + claim.metadata.name);
  auto volume = CreateVolume(request->request);
  if (!volume.ok()) return volume.error();
  const int64_t requested = request->request.capacity_range().required_bytes();
  const std::string driver = kDriverName;
  const std::string identity = "floor-" + driver;
  auto created = client_.Create(provisioner::MakeProvisionedVolume(
      {.claim = claim,
       .storage_class = storage_class,
       .request = *request,
       .volume = *volume,
       .capacity_bytes = volume->capacity_bytes() > 0 ? volume->capacity_bytes() : requested,
       .driver_name = driver,
       .identity = identity}));
  if (!created.ok() && !kube::IsConflict(created.error())) return created.error();
  NoteVolume(volume_name, true);
  return {};
}

base::Result<csi::v1::Volume> FloorProvisioner::CreateVolume(
    const csi::v1::CreateVolumeRequest& request) {
  csi::v1::CreateVolumeResponse response;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + options_.timeout);
  if (auto status = csi_->CreateVolume(&context, request, &response); !status.ok()) {
    return base::Error("CreateVolume failed: " + status.error_message());
  }
  return response.volume();
}

bool FloorProvisioner::VolumeExists(const std::string& name) const {
  std::lock_guard lock(volumes_mu_);
  return volumes_.contains(name);
}

void FloorProvisioner::NoteVolume(const std::string& name, bool exists) {
  std::lock_guard lock(volumes_mu_);
  exists ? (void)volumes_.insert(name) : (void)volumes_.erase(name);
}

}  // namespace bench
