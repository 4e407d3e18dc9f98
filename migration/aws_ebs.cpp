#include "migration/aws_ebs.h"

#include <regex>
#include <string>

#include "migration/drivers.h"
#include "migration/topology.h"

namespace migration {
namespace {

constexpr std::string_view kAwsPrefix = "aws://";
constexpr std::string_view kEbsTopologyKey = "topology.ebs.csi.aws.com/zone";

// The URL path of an aws:// ID: after the authority, before any query or
// fragment.
std::string_view UrlPath(std::string_view id) {
  std::string_view rest = id.substr(kAwsPrefix.size());
  rest = rest.substr(0, rest.find_first_of("?#"));
  size_t slash = rest.find('/');
  return slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
}

}  // namespace

base::Result<std::string> EbsVolumeIdOf(const std::string& kubernetes_id) {
  if (!kubernetes_id.starts_with(kAwsPrefix)) return kubernetes_id;
  std::string_view path = UrlPath(kubernetes_id);
  size_t first = path.find_first_not_of('/');
  std::string id(first == std::string_view::npos
                     ? std::string_view()
                     : path.substr(first, path.find_last_not_of('/') - first + 1));
  static const std::regex kVolumeId("^vol-[^/]*$");
  if (!std::regex_match(id, kVolumeId)) {
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
