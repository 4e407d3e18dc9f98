#include "snapshot/class_secrets.h"

#include <string>

namespace snapshot {

base::Result<std::optional<kube::SecretReference>> ClassSecretOf(const ClassSecretKeys& keys,
                                                                 const kube::StringMap& parameters,
                                                                 std::string_view content_name,
                                                                 const kube::ObjectMeta* snapshot) {
  const std::string object(keys.object);
  const std::string content_token = object + "content.name";
  const std::string namespace_token = object + ".namespace";
  const std::string name_token = object + ".name";
  csi_params::TemplateVariables variables = {{content_token, content_name}};
  if (snapshot != nullptr) variables.emplace(namespace_token, snapshot->namespace_);
  // Only the Secret's name may depend on the VolumeSnapshot's name, which its
  // user chooses: the namespace stays under the cluster admin's control.
  csi_params::TemplateVariables name_variables = variables;
  if (snapshot != nullptr) name_variables.emplace(name_token, snapshot->name);
  return csi_params::SecretReferenceOf(keys.keys, parameters, variables, name_variables);
}

}  // namespace snapshot
