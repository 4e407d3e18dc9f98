// What a ServiceAccount may do, as the API server's authorizer answers it: a
// SubjectAccessReview per verb and resource, compared with a table of the
// rules the account's RBAC manifest should grant (the RBAC tests of each
// binary hold their account to upstream's rules this way); and the one rule
// the manifests leave to the operator, `get` on Secrets, granted as an
// operator grants it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "kube/client/client.h"

namespace testsupport {

// AccessRule::ns of a ClusterRole's rule: it holds in every namespace.
inline constexpr char kAnyNamespace[] = "*";

// Every verb the authorizer is asked about.
inline const std::vector<std::string> kAllVerbs = {"get",    "list",  "watch",  "create",
                                                   "update", "patch", "delete", "deletecollection"};

// One resource as the authorizer is asked about it; "" namespace = cluster-scoped.
struct AccessTarget {
  std::string group;
  std::string resource;  // "<resource>" or "<resource>/<subresource>"
  std::string ns;
};

// A rule of a manifest: `ns` is kAnyNamespace for a ClusterRole, the Role's
// namespace otherwise.
struct AccessRule {
  std::string group;
  std::string resource;
  std::string ns;
  std::set<std::string> verbs;
};

// Whether `rules` grant `verb` on `target`.
bool Granted(const std::vector<AccessRule>& rules, const AccessTarget& target,
             const std::string& verb);

// The authorizer's answer for ServiceAccount ns/name, asked as `admin`.
base::Result<bool> ServiceAccountMay(kube::Client& admin, const std::string& ns,
                                     const std::string& name, const AccessTarget& target,
                                     const std::string& verb);

// Every verb of kAllVerbs on every target, asked for ServiceAccount ns/name
// and compared with what `rules` grant.
struct AccessComparison {
  int granted = 0;                      // the (target, verb) pairs `rules` grant
  std::vector<std::string> mismatches;  // "may"/"may not", verb, resource and namespace
};
base::Result<AccessComparison> CompareAccess(kube::Client& admin, const std::string& ns,
                                             const std::string& name,
                                             const std::vector<AccessTarget>& targets,
                                             const std::vector<AccessRule>& rules);

// Gives ServiceAccount account_ns/account `get` on the Secrets of `ns` (a
// Role and RoleBinding named `grant` there), as an operator does for classes
// that name secrets; returns once the authorizer applies it: `as_account`, a
// client with the account's token, is answered 404, not 403, for a missing
// Secret.
base::Status GrantSecretGet(kube::Client& admin, kube::Client& as_account, const std::string& ns,
                            const std::string& account_ns, const std::string& account,
                            const std::string& grant);

}  // namespace testsupport
