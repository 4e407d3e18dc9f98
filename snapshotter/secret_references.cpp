#include "snapshotter/secret_references.h"

#include <map>
#include <set>
#include <string>

#include "base/strconv.h"
#include "kube/api/names.h"
#include "snapshot/names.h"

namespace snapshotter {
namespace {

using Ref = std::optional<kube::SecretReference>;

// A template's tokens and their values.
using Variables = std::map<std::string_view, std::string_view>;

// Go's os.Expand: ${name} or $name is replaced by its value in `variables`,
// else recorded in `missing` (and replaced by nothing). "$" before nothing,
// or before a character that starts no name, stays; "${}" and an unclosed
// "${" are dropped, as os.Expand does.
std::string Expand(std::string_view text, const Variables& variables,
                   std::set<std::string>& missing) {
  auto is_special = [](char c) {
    return std::string_view("*#$@!?-0123456789").find(c) != std::string_view::npos;
  };
  auto is_name_char = [](char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] != '$' || i + 1 == text.size()) {
      out += text[i++];
      continue;
    }
    std::string_view rest = text.substr(i + 1);
    std::string_view name;
    size_t width = 0;  // characters after '$' consumed
    if (rest[0] == '{') {
      if (rest.size() > 2 && is_special(rest[1]) && rest[2] == '}') {
        name = rest.substr(1, 1);
        width = 3;
      } else if (size_t close = rest.find('}'); close == std::string_view::npos) {
        width = 1;  // bad syntax: drop "${"
      } else {
        name = rest.substr(1, close - 1);
        width = close + 1;  // "${}" has an empty name: dropped
      }
    } else if (is_special(rest[0])) {
      name = rest.substr(0, 1);
      width = 1;
    } else {
      while (width < rest.size() && is_name_char(rest[width])) ++width;
      name = rest.substr(0, width);
      if (name.empty()) out += '$';  // no name follows: the '$' stays
    }
    if (!name.empty()) {
      if (auto value = variables.find(name); value != variables.end()) {
        out += value->second;
      } else {
        missing.emplace(name);
      }
    }
    i += 1 + width;
  }
  return out;
}

// "invalid tokens: [\"a\" \"b\"]", as Go prints %q of a sorted []string.
std::string InvalidTokens(const std::set<std::string>& missing) {
  std::string list;
  for (const std::string& token : missing) {
    if (!list.empty()) list += ' ';
    list += base::GoQuote(token);
  }
  return "invalid tokens: [" + list + "]";
}

base::Result<std::string> Resolve(std::string_view template_text, const Variables& variables) {
  std::set<std::string> missing;
  std::string resolved = Expand(template_text, variables, missing);
  if (!missing.empty()) {
    return base::Error("error resolving value " + base::GoQuote(template_text) + ": " +
                       InvalidTokens(missing));
  }
  return resolved;
}

base::Error InvalidName(std::string_view template_text, std::string_view resolved,
                        std::string_view what) {
  if (template_text != resolved) {
    return base::Error(base::GoQuote(template_text) + " resolved to " + base::GoQuote(resolved) +
                       " which is not a valid " + std::string(what) + " name");
  }
  return base::Error(base::GoQuote(template_text) + " is not a valid " + std::string(what) +
                     " name");
}

// The pair of class parameters naming one Secret, and what upstream's error
// texts call that Secret.
// `object` is the prefix of the template tokens: "volumesnapshot" gives
// ${volumesnapshotcontent.name}, ${volumesnapshot.namespace} and
// ${volumesnapshot.name}.
struct SecretTemplateKeys {
  std::string_view name_key;
  std::string_view namespace_key;
  std::string_view what;
  std::string_view object = "volumesnapshot";
};
constexpr SecretTemplateKeys kSnapshotterSecretKeys = {
    snapshot::kSnapshotterSecretNameKey, snapshot::kSnapshotterSecretNamespaceKey, "Snapshotter"};
constexpr SecretTemplateKeys kListSecretKeys = {
    snapshot::kListSecretNameKey, snapshot::kListSecretNamespaceKey, "SnapshotterList"};
constexpr SecretTemplateKeys kGroupSnapshotterSecretKeys = {
    snapshot::kGroupSnapshotterSecretNameKey, snapshot::kGroupSnapshotterSecretNamespaceKey,
    "GroupSnapshotter", "volumegroupsnapshot"};
constexpr SecretTemplateKeys kGroupGetSecretKeys = {
    snapshot::kGroupSnapshotterGetSecretNameKey, snapshot::kGroupSnapshotterGetSecretNamespaceKey,
    "GroupSnapshotterGet", "volumegroupsnapshot"};

// The Secret named by the templates under `keys` (§3.5). The namespace may
// use the content's name and the (group) snapshot's namespace, the name also
// the snapshot's name; without a snapshot only the content's name is known.
base::Result<Ref> SecretReferenceOf(const SecretTemplateKeys& keys,
                                    const kube::StringMap& parameters,
                                    std::string_view content_name,
                                    const kube::ObjectMeta* snapshot) {
  auto name = parameters.find(keys.name_key);
  auto ns = parameters.find(keys.namespace_key);
  bool has_name = name != parameters.end();
  const std::string failed = "failed to get name and namespace template from params: ";
  if (has_name != (ns != parameters.end())) {
    return base::Error(failed + "either name and namespace for " + std::string(keys.what) +
                       " secrets specified, Both must be specified");
  }
  if (!has_name) return Ref();
  if (name->second.empty() || ns->second.empty()) {
    return base::Error(failed + std::string(keys.what) +
                       " secrets specified in parameters but value of either namespace or name "
                       "is empty");
  }

  const std::string object(keys.object);
  const std::string content_token = object + "content.name";
  const std::string namespace_token = object + ".namespace";
  const std::string name_token = object + ".name";
  Variables variables = {{content_token, content_name}};
  if (snapshot != nullptr) variables.emplace(namespace_token, snapshot->namespace_);
  auto resolved_ns = Resolve(ns->second, variables);
  if (!resolved_ns.ok()) return resolved_ns.error();
  if (!kube::IsDns1123Label(*resolved_ns))
    return InvalidName(ns->second, *resolved_ns, "namespace");
  // Only the Secret's name may depend on the VolumeSnapshot's name, which its
  // user chooses: the namespace stays under the cluster admin's control.
  if (snapshot != nullptr) variables.emplace(name_token, snapshot->name);
  auto resolved_name = Resolve(name->second, variables);
  if (!resolved_name.ok()) return resolved_name.error();
  if (!kube::IsDns1123Subdomain(*resolved_name)) {
    return InvalidName(name->second, *resolved_name, "secret");
  }
  return Ref(kube::SecretReference{.name = *resolved_name, .namespace_ = *resolved_ns});
}

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
  return SecretReferenceOf(kListSecretKeys, parameters, content_name, nullptr);
}

base::Result<Ref> SnapshotterSecretOf(const kube::StringMap& parameters,
                                      std::string_view content_name,
                                      const kube::VolumeSnapshot& snapshot) {
  return SecretReferenceOf(kSnapshotterSecretKeys, parameters, content_name, &snapshot.metadata);
}

base::Result<Ref> GroupGetSecretOf(const kube::StringMap& parameters,
                                   std::string_view content_name) {
  return SecretReferenceOf(kGroupGetSecretKeys, parameters, content_name, nullptr);
}

base::Result<Ref> GroupSnapshotterSecretOf(const kube::StringMap& parameters,
                                           std::string_view content_name,
                                           const kube::VolumeGroupSnapshot* group) {
  return SecretReferenceOf(kGroupSnapshotterSecretKeys, parameters, content_name,
                           group ? &group->metadata : nullptr);
}

}  // namespace snapshotter
