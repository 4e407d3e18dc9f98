#include "migration/aws_ebs.h"

#include <string>

#include "migration/drivers.h"
#include "migration/topology.h"
#include "migration/url_path.h"

namespace migration {
namespace {

constexpr std::string_view kAwsPrefix = "aws://";
constexpr std::string_view kEbsTopologyKey = "topology.ebs.csi.aws.com/zone";

}  // namespace

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

}  // namespace migration
