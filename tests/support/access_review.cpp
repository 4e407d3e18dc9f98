#include "tests/support/access_review.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "kube/api/core/v1/secret.h"
#include "kube/client/api_error.h"
#include "tests/support/cluster_polls.h"
#include "tests/support/manifest.h"

namespace testsupport {

bool Granted(const std::vector<AccessRule>& rules, const AccessTarget& target,
             const std::string& verb) {
  return std::any_of(rules.begin(), rules.end(), [&](const AccessRule& rule) {
    return rule.group == target.group && rule.resource == target.resource &&
           (rule.ns == kAnyNamespace || rule.ns == target.ns) && rule.verbs.contains(verb);
  });
}

base::Result<bool> ServiceAccountMay(kube::Client& admin, const std::string& ns,
                                     const std::string& name, const AccessTarget& target,
                                     const std::string& verb) {
  const auto slash = target.resource.find('/');
  nlohmann::json attributes = {
      {"group", target.group}, {"resource", target.resource.substr(0, slash)}, {"verb", verb}};
  if (slash != std::string::npos) attributes["subresource"] = target.resource.substr(slash + 1);
  if (!target.ns.empty()) attributes["namespace"] = target.ns;
  const nlohmann::json review = {
      {"apiVersion", "authorization.k8s.io/v1"},
      {"kind", "SubjectAccessReview"},
      {"spec",
       {{"user", fmt::format("system:serviceaccount:{}:{}", ns, name)},
        {"groups",
         {"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"}},
        {"resourceAttributes", attributes}}},
  };
  auto body = admin.Request("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews",
                            review.dump(), "application/json");
  if (!body.ok()) return body.error();
  auto answer = nlohmann::json::parse(*body, nullptr, false);
  if (!answer.is_object()) return base::Error("SubjectAccessReview: no JSON object: " + *body);
  return answer.value(nlohmann::json::json_pointer("/status/allowed"), false);
}

base::Result<AccessComparison> CompareAccess(kube::Client& admin, const std::string& ns,
                                             const std::string& name,
                                             const std::vector<AccessTarget>& targets,
                                             const std::vector<AccessRule>& rules) {
  AccessComparison comparison;
  for (const AccessTarget& target : targets) {
    for (const std::string& verb : kAllVerbs) {
      auto allowed = ServiceAccountMay(admin, ns, name, target, verb);
      if (!allowed.ok()) return allowed.error();
      const bool expected = Granted(rules, target, verb);
      comparison.granted += expected;
      if (*allowed != expected) {
        comparison.mismatches.push_back(fmt::format(
            "{}/{} {} {} {}/{}{}", ns, name, *allowed ? "may" : "may not", verb, target.group,
            target.resource, target.ns.empty() ? "" : " in " + target.ns));
      }
    }
  }
  return comparison;
}

base::Status GrantSecretGet(kube::Client& admin, kube::Client& as_account, const std::string& ns,
                            const std::string& account_ns, const std::string& account,
                            const std::string& grant) {
  const std::string manifest = fmt::format(R"(kind: Role
apiVersion: rbac.authorization.k8s.io/v1
metadata:
  name: {0}
  namespace: {1}
rules:
  - apiGroups: [""]
    resources: ["secrets"]
    verbs: ["get"]
---
kind: RoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata:
  name: {0}
  namespace: {1}
subjects:
  - kind: ServiceAccount
    name: {2}
    namespace: {3}
roleRef:
  kind: Role
  name: {0}
  apiGroup: rbac.authorization.k8s.io
)",
                                           grant, ns, account, account_ns);
  if (auto applied = ApplyManifest(admin, manifest, "secret read grant"); !applied.ok()) {
    return applied;
  }
  std::string last_error;
  const bool effective = PollUntil(
      [&] {
        auto secret = as_account.Get<kube::Secret>(ns, "rbac-probe-never-created");
        if (!secret.ok() && kube::IsNotFound(secret.error())) return true;
        last_error = secret.ok() ? "rbac-probe-never-created exists" : secret.error().message;
        return false;
      },
      std::chrono::seconds(60));
  if (!effective) return base::Error("secret read grant not in effect: " + last_error);
  return {};
}

}  // namespace testsupport
