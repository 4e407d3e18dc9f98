// The RestConfig a binary's clients use, from --kubeconfig (or the pod's
// service account), --master, --kube-api-qps and --kube-api-burst, with client-go's
// meaning of those flags. The user agent names the binary that runs:
// "<basename of argv[0]>/<version>".
#pragma once

#include <memory>
#include <string_view>

#include "base/result.h"
#include "component/standard_flags.h"
#include "kube/client/client.h"
#include "kube/client/config.h"

namespace component {

// The config from --kubeconfig and --master (kube::LoadRestConfig), with
// the user agent of `program` (argv[0]).
base::Result<kube::RestConfig> LoadKubeConfig(const KubeClientOptions& options,
                                              std::string_view program);

// The client rate limit that --kube-api-qps/--kube-api-burst mean to
// client-go: qps > 0 needs burst > 0 (else the error client-go gives); qps 0
// means client-go's defaults, 5 qps and (burst 0 meaning) 10; qps < 0 means
// no limit, returned as qps <= 0 like kube::TokenBucket takes it.
struct KubeApiRateLimits {
  double qps;
  int burst;
};
base::Result<KubeApiRateLimits> RateLimitsFor(const KubeClientOptions& options);

// Sets `config`'s limits from RateLimitsFor; its error when they are invalid.
base::Status ApplyRateLimits(const KubeClientOptions& options, kube::RestConfig& config);

// A sidecar's API client, in csi-provisioner's order and words (shared with
// csi-sidecars): the config, its rate limits, the leader-election durations,
// the client. A failure is logged - fatally (exit 255) but for the durations,
// "Failed to initialize leader election" (exit 1) - and its exit code set in
// `exit_code`; the result is then null.
std::unique_ptr<kube::Client> SidecarClientOrExit(const SidecarOptions& options,
                                                  std::string_view program, int& exit_code);

}  // namespace component
