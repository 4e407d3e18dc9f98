#include "snapshotter/secret_references.h"

#include <set>
#include <string>

#include "base/strconv.h"
#include "kube/api/names.h"
#include "snapshotter/names.h"

namespace snapshotter {
namespace {

using Ref = std::optional<kube::SecretReference>;

// Go's os.Expand with one known variable: ${name} or $name is replaced by
// `value` when name is `known`, else recorded in `missing`. "$" before
// nothing, or before a character that starts no name, stays; "${}" and an
// unclosed "${" are dropped, as os.Expand does.
std::string Expand(std::string_view text, std::string_view known, std::string_view value,
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
      if (name == known) {
        out += value;
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

base::Result<std::string> Resolve(std::string_view template_text, std::string_view content_name) {
  std::set<std::string> missing;
  std::string resolved = Expand(template_text, "volumesnapshotcontent.name", content_name, missing);
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

}  // namespace

base::Result<Ref> DeletionSecretOf(const kube::VolumeSnapshotContent& content) {
  const kube::StringMap& annotations = content.metadata.annotations;
  auto name = annotations.find(kDeletionSecretNameAnnotation);
  auto ns = annotations.find(kDeletionSecretNamespaceAnnotation);
  if (name == annotations.end() || ns == annotations.end()) return Ref();
  if (name->second.empty() || ns->second.empty()) {
    return base::Error("cannot retrieve secrets for snapshot content " +
                       base::GoQuote(content.metadata.name) +
                       ", err: secret name or namespace not specified");
  }
  return Ref(kube::SecretReference{.name = name->second, .namespace_ = ns->second});
}

base::Result<Ref> ListSecretOf(const kube::StringMap& parameters, std::string_view content_name) {
  auto name = parameters.find(kListSecretNameKey);
  auto ns = parameters.find(kListSecretNamespaceKey);
  bool has_name = name != parameters.end();
  if (has_name != (ns != parameters.end())) {
    return base::Error(
        "failed to get name and namespace template from params: either name and namespace for "
        "SnapshotterList secrets specified, Both must be specified");
  }
  if (!has_name) return Ref();
  if (name->second.empty() || ns->second.empty()) {
    return base::Error(
        "failed to get name and namespace template from params: SnapshotterList secrets specified "
        "in parameters but value of either namespace or name is empty");
  }

  auto resolved_ns = Resolve(ns->second, content_name);
  if (!resolved_ns.ok()) return resolved_ns.error();
  if (!kube::IsDns1123Label(*resolved_ns))
    return InvalidName(ns->second, *resolved_ns, "namespace");
  auto resolved_name = Resolve(name->second, content_name);
  if (!resolved_name.ok()) return resolved_name.error();
  if (!kube::IsDns1123Subdomain(*resolved_name)) {
    return InvalidName(name->second, *resolved_name, "secret");
  }
  return Ref(kube::SecretReference{.name = *resolved_name, .namespace_ = *resolved_ns});
}

}  // namespace snapshotter
