#include "csi_params/secret_templates.h"

#include <set>

#include "base/strconv.h"
#include "csi_params/reserved_parameters.h"
#include "kube/api/names.h"

namespace csi_params {
namespace {

// Go's os.Expand: ${name} or $name is replaced by its value in `variables`,
// else recorded in `missing` (and replaced by nothing). "$" before nothing,
// or before a character that starts no name, stays; "${}" and an unclosed
// "${" are dropped, as os.Expand does.
std::string Expand(std::string_view text, const TemplateVariables& variables,
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

base::Result<std::string> ResolveTemplate(std::string_view template_text,
                                          const TemplateVariables& variables) {
  std::set<std::string> missing;
  std::string resolved = Expand(template_text, variables, missing);
  if (!missing.empty()) {
    return base::Error("error resolving value " + base::GoQuote(template_text) + ": " +
                       InvalidTokens(missing));
  }
  return resolved;
}

namespace {

// A template given by `key` or `deprecated_key` (which may be empty: no
// such key); `count` says by how many of them.
struct FoundTemplate {
  std::string text;
  int count = 0;
};

FoundTemplate FindTemplate(const kube::StringMap& parameters, std::string_view key,
                           std::string_view deprecated_key) {
  FoundTemplate found;
  for (std::string_view k : {deprecated_key, key}) {
    if (k.empty()) continue;
    if (auto it = parameters.find(k); it != parameters.end()) {
      found.text = it->second;
      ++found.count;
    }
  }
  return found;
}

}  // namespace

base::Result<std::optional<kube::SecretReference>> SecretReferenceOf(
    const SecretParameterKeys& keys, const kube::StringMap& parameters,
    const TemplateVariables& namespace_variables, const TemplateVariables& name_variables) {
  const FoundTemplate name = FindTemplate(parameters, keys.name_key, keys.deprecated_name_key);
  const FoundTemplate ns =
      FindTemplate(parameters, keys.namespace_key, keys.deprecated_namespace_key);
  const std::string failed(keys.key_error_prefix);
  const std::string what(keys.what);
  if (name.count > 1 || ns.count > 1) {
    return base::Error(failed + what + " secrets specified in parameters with both \"csi\" and \"" +
                       std::string(kReservedParameterPrefix) + "\" keys");
  }
  if (name.count != ns.count) {
    return base::Error(failed + "either name and namespace for " + what +
                       " secrets specified, Both must be specified");
  }
  if (name.count == 0) return std::optional<kube::SecretReference>();
  if (name.text.empty() || ns.text.empty()) {
    return base::Error(failed + what +
                       " secrets specified in parameters but value of either namespace or name "
                       "is empty");
  }
  auto resolved_ns = ResolveTemplate(ns.text, namespace_variables);
  if (!resolved_ns.ok()) return resolved_ns.error();
  if (!kube::IsDns1123Label(*resolved_ns)) return InvalidName(ns.text, *resolved_ns, "namespace");
  auto resolved_name = ResolveTemplate(name.text, name_variables);
  if (!resolved_name.ok()) return resolved_name.error();
  if (!kube::IsDns1123Subdomain(*resolved_name)) {
    return InvalidName(name.text, *resolved_name, "secret");
  }
  return std::optional(kube::SecretReference{.name = *resolved_name, .namespace_ = *resolved_ns});
}

}  // namespace csi_params
