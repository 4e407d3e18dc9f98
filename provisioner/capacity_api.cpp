#include "provisioner/capacity_api.h"

#include <nlohmann/json.hpp>

#include "kube/api/codec.h"
#include "kube/api/resource.h"

namespace provisioner {

// ObjectMeta has no generateName (nothing else writes one): it is added to
// the encoded object.
base::Result<kube::CSIStorageCapacity> CapacityApiClient::Create(
    const kube::CSIStorageCapacity& object, const std::string& generate_name) {
  nlohmann::json body = nlohmann::json::parse(kube::EncodeObject(object));
  body["metadata"]["generateName"] = generate_name;
  base::Result<std::string> answer = client_.Request(
      "POST", kube::ResourcePath<kube::CSIStorageCapacity>(object.metadata.namespace_), body.dump(),
      "application/json");
  if (!answer.ok()) return answer.error();
  return kube::DecodeObject<kube::CSIStorageCapacity>(*answer);
}

}  // namespace provisioner
