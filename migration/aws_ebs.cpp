#include "migration/aws_ebs.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "migration/drivers.h"
#include "migration/partition.h"
#include "migration/split.h"
#include "migration/topology.h"
#include "migration/topology_to_in_tree.h"
#include "migration/url_path.h"

namespace migration {
namespace {

constexpr std::string_view kAwsPrefix = "aws://";

// The region of one AWS zone: us-west-2a and us-gov-east-1a drop the zone
// letter, local zones (us-west-2-lax-1a) and Wavelength zones
// (us-east-1-wl1-bos-wlz-1) keep their first three parts.
base::Result<std::string> AwsRegionOf(const std::string& zone) {
  std::vector<std::string> parts = Split(zone, "-");
  std::string& last = parts.back();
  if ((parts.size() == 3 || parts.size() == 4) && last.size() == 2) {
    last.resize(1);
    return Join(parts, "-");
  }
  if (parts.size() == 5 || parts.size() == 7) return Join(std::span(parts).first(3), "-");
  return base::Error("Unexpected zone format: " + zone + " is not a valid AWS zone");
}

}  // namespace

base::Result<std::string> AwsRegionFromZones(const std::vector<std::string>& zones) {
  return CommonRegion(zones, AwsRegionOf);
}

base::Result<std::string> EbsVolumeIdOf(const std::string& kubernetes_id) {
  // IDs of the in-tree provisioner carried their zone: aws://<zone>/vol-<id>.
  if (!kubernetes_id.starts_with(kAwsPrefix)) return kubernetes_id;
  auto path = UrlPathOf(kubernetes_id);
  if (!path.ok()) {
    return base::Error("Invalid disk name (" + kubernetes_id + "): " + path.error().message);
  }
  size_t first = path->find_first_not_of('/');
  std::string id = first == std::string::npos
                       ? ""
                       : path->substr(first, path->find_last_not_of('/') - first + 1);
  // Upstream's pattern is ^vol-[^/]*$.
  if (!id.starts_with("vol-") || id.find('/') != std::string::npos) {
    return base::Error("Invalid format for AWS volume (" + kubernetes_id + ")");
  }
  return id;
}

base::Result<kube::CSIPersistentVolumeSource> TranslateAwsEbs(
    const kube::AWSElasticBlockStoreVolumeSource& source, kube::PersistentVolume& pv) {
  auto volume_id = EbsVolumeIdOf(source.volume_id);
  if (!volume_id.ok()) {
    return base::Error("failed to translate Kubernetes ID to EBS Volume ID " +
                       volume_id.error().message);
  }
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kAwsEbsDriver);
  csi.volume_handle = std::move(*volume_id);
  csi.fs_type = source.fs_type;
  csi.read_only = source.read_only;
  csi.volume_attributes["partition"] = std::to_string(source.partition);
  TranslateZoneTopology(pv, kEbsTopologyKey);
  return csi;
}

base::Result<kube::AWSElasticBlockStoreVolumeSource> AwsEbsFromCsi(
    const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume& pv) {
  auto partition = PartitionAttribute(csi.volume_attributes, EmptyPartition::kInvalid, "failed");
  if (!partition.ok()) return partition.error();
  base::Status topology = TranslateZoneTopologyToInTree(pv, kEbsTopologyKey, AwsRegionFromZones);
  if (!topology.ok()) return TopologyToInTreeError(pv, topology.error());
  return kube::AWSElasticBlockStoreVolumeSource{csi.volume_handle, csi.fs_type, *partition,
                                                csi.read_only};
}

}  // namespace migration
