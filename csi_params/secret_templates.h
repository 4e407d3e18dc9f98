// Secret references in a class's parameters (docs/snapshots.md §3.5): a pair
// of parameters names the Secret of a CSI call by two templates, its name
// and its namespace, whose ${...} tokens are filled from the objects the
// call is about. Only references are resolved here; reading the Secret is
// the caller's. Error texts are upstream's sidecars', because they end up in
// status.error and Events. Each sidecar brings its own parameter keys and
// tokens.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/core/v1/volume_sources.h"
#include "kube/api/string_map.h"

namespace csi_params {

// A template's tokens and their values.
using TemplateVariables = std::map<std::string_view, std::string_view>;

// `template_text` expanded as Go's os.Expand does: ${name} or $name is
// replaced by its value in `variables`; "$" before nothing, or before a
// character that starts no name, stays; "${}" and an unclosed "${" are
// dropped. A token without a value is the error "error resolving value
// \"<template>\": invalid tokens: [\"a\" \"b\"]" (sorted, as Go prints %q of
// a sorted []string).
base::Result<std::string> ResolveTemplate(std::string_view template_text,
                                          const TemplateVariables& variables);

// The pair of class parameters naming one Secret, and what upstream's error
// texts call that Secret ("Snapshotter", "SnapshotterList", ...). Some
// Secrets also have an older pair of keys (the provisioner's
// csiProvisionerSecretName, ...): either pair may name the Secret, not both.
struct SecretParameterKeys {
  std::string_view name_key;
  std::string_view namespace_key;
  std::string_view what;
  std::string_view deprecated_name_key = {};
  std::string_view deprecated_namespace_key = {};
  // Starts the errors about the keys themselves (not about their values).
  std::string_view key_error_prefix = "failed to get name and namespace template from params: ";
};

// The Secret the pair `keys` names in `parameters`: nullopt when neither is
// set. Both must be set and non-empty, and a name or namespace given by both
// the old and the new key is an error. The namespace template resolves with
// `namespace_variables` and must give a DNS-1123 label; then the name
// template resolves with `name_variables` (usually a superset: only the name
// may depend on what the user who made the object chose) and must give a
// DNS-1123 subdomain.
base::Result<std::optional<kube::SecretReference>> SecretReferenceOf(
    const SecretParameterKeys& keys, const kube::StringMap& parameters,
    const TemplateVariables& namespace_variables, const TemplateVariables& name_variables);

}  // namespace csi_params
