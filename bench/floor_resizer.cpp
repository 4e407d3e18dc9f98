#include "bench/floor_resizer.h"

#include <grpcpp/grpcpp.h>

#include "base/quantity.h"
#include "bench/objects.h"
#include "resizer/size_choice.h"
#include "resizer/status_patches.h"

namespace bench {
namespace {

std::string ClaimKeyOf(const kube::PersistentVolumeClaim& claim) {
  return claim.metadata.namespace_ + "/" + claim.metadata.name;
}

int64_t QuantityBytes(std::string_view quantity) {
  auto bytes = base::QuantityAsInt64(quantity);
  return bytes.ok() ? *bytes : 0;
}

}  // namespace

FloorResizer::FloorResizer(kube::Client& client, FloorResizerOptions options)
    : client_(client),
      options_(std::move(options)),
      csi_(csi::v1::Controller::NewStub(grpc::CreateChannel("unix://" + options_.csi_socket,
                                                            grpc::InsecureChannelCredentials()))),
      pool_(
          {.name = "floor-claims",
           .workers = static_cast<uint32_t>(options_.workers),
           .retry_start = std::chrono::milliseconds(5),
           .retry_max = std::chrono::milliseconds(1000)},
          kube::PersistentVolumeClaim::kFacts, base::Clock::Real(),
          [this](const std::string& key) { return kube::DoneOr(Sync(key)); },
          [](const std::string&) { return kube::WorkQueue::Lane::kNormal; }) {}

base::Result<std::unique_ptr<FloorResizer>> FloorResizer::Start(kube::Client& client,
                                                                FloorResizerOptions options) {
  std::unique_ptr<FloorResizer> floor(new FloorResizer(client, std::move(options)));
  if (auto status = floor->StartWatches(); !status.ok()) return status.error();
  floor->runner_ = std::jthread([f = floor.get()](std::stop_token stop) { f->pool_.Run(stop); });
  return floor;
}

base::Status FloorResizer::StartWatches() {
  // The volumes first: the claims' first syncs find them in the cache.
  auto volumes = ObjectWatch<kube::PersistentVolume>::Start(
      client_, [this](const kube::PersistentVolume& volume, bool deleted) {
        deleted ? volumes_.Erase(volume.metadata.name, volume)
                : volumes_.Upsert(volume.metadata.name, volume);
      });
  if (!volumes.ok()) return volumes.error();
  volume_watch_ = std::move(*volumes);
  auto claims = WatchPrimary<kube::PersistentVolumeClaim>(client_, claims_, pool_, ClaimKeyOf);
  if (!claims.ok()) return claims.error();
  claim_watch_ = std::move(*claims);
  return {};
}

FloorResizer::~FloorResizer() {
  claim_watch_.reset();
  volume_watch_.reset();
  runner_.request_stop();
  if (runner_.joinable()) runner_.join();
}

base::Status FloorResizer::Sync(const std::string& key) {
  auto claim = claims_.Get(key);
  if (!claim || claim->status.phase != "Bound" || claim->spec.volume_name.empty()) return {};
  if (QuantityBytes(claim->spec.requests_storage) <= QuantityBytes(claim->status.capacity_storage))
    return {};
  auto volume = volumes_.Get(claim->spec.volume_name);
  if (!volume) return base::Error("volume " + claim->spec.volume_name + " not in the cache");
  const auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&volume->spec.source);
  if (!csi || csi->driver.str() != kDriverName) return {};
  return Expand(*claim, *volume);
}

base::Status FloorResizer::Expand(const kube::PersistentVolumeClaim& claim,
                                  const kube::PersistentVolume& volume) {
  const resizer::Size size{claim.spec.requests_storage, QuantityBytes(claim.spec.requests_storage)};
  const bool new_state = QuantityBytes(claim.status.allocated_storage) != size.bytes;
  auto marked = client_.PatchStatus<kube::PersistentVolumeClaim>(
      claim.metadata.namespace_, claim.metadata.name, kube::PatchType::kStrategicMerge,
      resizer::MarkResizingPatch(claim, size, new_state, std::chrono::system_clock::now()));
  if (!marked.ok()) return marked.error();
  claims_.Upsert(ClaimKeyOf(*marked), *marked);

  const auto& csi = std::get<kube::CSIPersistentVolumeSource>(volume.spec.source);
  auto bytes = ControllerExpand(csi.volume_handle, size.bytes);
  if (!bytes.ok()) return bytes.error();
  const std::string capacity = base::FormatBinarySIQuantity(*bytes);

  auto grown = client_.Patch<kube::PersistentVolume>(
      "", volume.metadata.name, kube::PatchType::kStrategicMerge,
      resizer::VolumeCapacityPatch(capacity, /*old_capacity=*/nullptr));
  if (!grown.ok()) return grown.error();
  volumes_.Upsert(grown->metadata.name, *grown);

  auto finished = client_.PatchStatus<kube::PersistentVolumeClaim>(
      claim.metadata.namespace_, claim.metadata.name, kube::PatchType::kStrategicMerge,
      resizer::MarkExpansionFinishedPatch(*marked, capacity));
  if (!finished.ok()) return finished.error();
  claims_.Upsert(ClaimKeyOf(*finished), *finished);
  return {};
}

base::Result<int64_t> FloorResizer::ControllerExpand(const std::string& volume_id, int64_t bytes) {
  csi::v1::ControllerExpandVolumeRequest request;
  request.set_volume_id(volume_id);
  request.mutable_capacity_range()->set_required_bytes(bytes);
  csi::v1::ControllerExpandVolumeResponse response;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + options_.timeout);
  if (auto status = csi_->ControllerExpandVolume(&context, request, &response); !status.ok()) {
    return base::Error("ControllerExpandVolume failed: " + status.error_message());
  }
  return response.capacity_bytes();
}

}  // namespace bench
