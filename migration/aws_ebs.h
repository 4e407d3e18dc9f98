// AWS EBS (kubernetes.io/aws-ebs -> ebs.csi.aws.com), docs/migration.md §2.2;
// back to in-tree, §8.2.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

inline constexpr std::string_view kEbsTopologyKey = "topology.ebs.csi.aws.com/zone";

// Translates `source`, the awsElasticBlockStore of `pv`, and returns the
// CSI source; the caller installs it in `pv`. Also rewrites the topology of
// `pv` (§2.0). volumeAttributes always carry "partition" ("0" included).
// Error: "failed to translate Kubernetes ID to EBS Volume ID <why>" for an
// aws:// volume ID whose path is not vol-<id>.
base::Result<kube::CSIPersistentVolumeSource> TranslateAwsEbs(
    const kube::AWSElasticBlockStoreVolumeSource& source, kube::PersistentVolume& pv);

// The EBS volume ID of a Kubernetes one: IDs without the aws:// prefix are
// returned unchanged and unchecked; aws://[<zone>]/vol-<id> gives vol-<id>
// (the URL path, percent-decoded, without its slashes). Errors: "Invalid disk
// name (<id>): <why>" when the ID is not a URL Go's net/url accepts, "Invalid
// format for AWS volume (<id>)" when its path is not vol-<id>. (Upstream's
// third error, a scheme other than aws, cannot happen after the prefix.)
base::Result<std::string> EbsVolumeIdOf(const std::string& kubernetes_id);

// The region of AWS zones: <region><letter> (us-west-2a, us-gov-east-1a)
// and local (us-west-2-lax-1a) or Wavelength (us-east-1-wl1-bos-wlz-1)
// zones. Errors: "no zones specified", "Unexpected zone format: <zone> is
// not a valid AWS zone", "multiple or no regions gotten from zones, got:
// map[<r1>:{} <r2>:{}]".
base::Result<std::string> AwsRegionFromZones(const std::vector<std::string>& zones);

// The in-tree source for `csi`, the CSI source of `pv` (§8.2): volumeID =
// the handle (an EBS ID, never aws://), partition from the "partition"
// attribute when present (absent = 0; "" fails). Also rewrites `pv`'s
// topology with AwsRegionFromZones (§8.3). Errors: "failed to convert
// partition <p> to integer: <Atoi error>", or the topology error.
base::Result<kube::AWSElasticBlockStoreVolumeSource> AwsEbsFromCsi(
    const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume& pv);

}  // namespace migration
