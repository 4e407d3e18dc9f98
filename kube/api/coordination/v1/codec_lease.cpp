#include "kube/api/codec.h"

namespace kube {

using codec_internal::PutIfNotEmpty;
using codec_internal::PutIfSet;
using codec_internal::ReadField;

void from_json(const nlohmann::json& j, Lease& lease) {
  ReadField(j, "metadata", lease.metadata);
  ReadField(j, "spec", lease.spec);
}

void to_json(nlohmann::json& j, const Lease& lease) {
  j = codec_internal::NewObjectJson<Lease>();
  j["metadata"] = lease.metadata;
  j["spec"] = lease.spec;
}

void from_json(const nlohmann::json& j, LeaseSpec& spec) {
  ReadField(j, "holderIdentity", spec.holder_identity);
  ReadField(j, "leaseDurationSeconds", spec.lease_duration_seconds);
  ReadField(j, "acquireTime", spec.acquire_time);
  ReadField(j, "renewTime", spec.renew_time);
  ReadField(j, "leaseTransitions", spec.lease_transitions);
}

// holderIdentity and leaseTransitions are always written, as client-go's
// leader election does: an empty holder is how a released lease looks.
void to_json(nlohmann::json& j, const LeaseSpec& spec) {
  j = {{"holderIdentity", spec.holder_identity}, {"leaseTransitions", spec.lease_transitions}};
  PutIfSet(j, "leaseDurationSeconds", spec.lease_duration_seconds);
  PutIfNotEmpty(j, "acquireTime", spec.acquire_time);
  PutIfNotEmpty(j, "renewTime", spec.renew_time);
}

}  // namespace kube
