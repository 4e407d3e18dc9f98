#include "snapshotter/secret_references.h"

#include <string>

#include "base/strconv.h"
#include "snapshot/class_secrets.h"
#include "snapshot/names.h"

namespace snapshotter {
namespace {

using Ref = std::optional<kube::SecretReference>;

constexpr snapshot::ClassSecretKeys kListSecretKeys = {
    {snapshot::kListSecretNameKey, snapshot::kListSecretNamespaceKey, "SnapshotterList"}};
constexpr snapshot::ClassSecretKeys kGroupGetSecretKeys = {
    {snapshot::kGroupSnapshotterGetSecretNameKey, snapshot::kGroupSnapshotterGetSecretNamespaceKey,
     "GroupSnapshotterGet"},
    "volumegroupsnapshot"};

// The Secret the annotations `name_key` and `namespace_key` of a content
// name; `what` is the content kind as upstream's error calls it.
base::Result<Ref> AnnotatedSecretOf(const kube::ObjectMeta& content, std::string_view name_key,
                                    std::string_view namespace_key, std::string_view what) {
  const kube::StringMap& annotations = content.annotations;
  auto name = annotations.find(name_key);
  auto ns = annotations.find(namespace_key);
  if (name == annotations.end() || ns == annotations.end()) return Ref();
  if (name->second.empty() || ns->second.empty()) {
    return base::Error("cannot retrieve secrets for " + std::string(what) + " " +
                       base::GoQuote(content.name) +
                       ", err: secret name or namespace not specified");
  }
  return Ref(kube::SecretReference{.name = name->second, .namespace_ = ns->second});
}

}  // namespace

base::Result<Ref> DeletionSecretOf(const kube::VolumeSnapshotContent& content) {
  return AnnotatedSecretOf(content.metadata, snapshot::kDeletionSecretNameAnnotation,
                           snapshot::kDeletionSecretNamespaceAnnotation, "snapshot content");
}

base::Result<Ref> DeletionSecretOf(const kube::VolumeGroupSnapshotContent& content) {
  return AnnotatedSecretOf(content.metadata, snapshot::kGroupDeletionSecretNameAnnotation,
                           snapshot::kGroupDeletionSecretNamespaceAnnotation,
                           "group snapshot content");
}

base::Result<Ref> ListSecretOf(const kube::StringMap& parameters, std::string_view content_name) {
  return snapshot::ClassSecretOf(kListSecretKeys, parameters, content_name, nullptr);
}

base::Result<Ref> GroupGetSecretOf(const kube::StringMap& parameters,
                                   std::string_view content_name) {
  return snapshot::ClassSecretOf(kGroupGetSecretKeys, parameters, content_name, nullptr);
}

}  // namespace snapshotter
