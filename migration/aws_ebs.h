// AWS EBS (kubernetes.io/aws-ebs -> ebs.csi.aws.com), docs/migration.md §2.2.
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

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

}  // namespace migration
