// csi_params/secret_templates.h: a pair of class parameters naming a Secret
// by templates, with the caller's tokens (here made-up ones: the rules do not
// depend on the kind), and upstream's error texts.
#include "csi_params/secret_templates.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace csi_params {
namespace {

constexpr SecretParameterKeys kKeys = {"example/secret-name", "example/secret-namespace",
                                       "Example"};

kube::StringMap Templates(std::string name, std::string ns) {
  return {{"example/secret-name", std::move(name)}, {"example/secret-namespace", std::move(ns)}};
}

TEST(ResolveTemplate, ExpandsAsGoOsExpand) {
  const TemplateVariables variables = {{"pvc.name", "data"}, {"pvc.namespace", "team-a"}};
  EXPECT_EQ(*ResolveTemplate("$pvc.name", {{"pvc", "x"}}), "x.name");
  EXPECT_EQ(*ResolveTemplate("${pvc.namespace}/${pvc.name}", variables), "team-a/data");
  EXPECT_EQ(*ResolveTemplate("cost$", variables), "cost$");
  EXPECT_EQ(*ResolveTemplate("a${}b${pvc.name", variables), "abpvc.name");
}

TEST(ResolveTemplate, UnknownTokensAreListedSortedAndQuoted) {
  auto resolved = ResolveTemplate("${b}${a}${b}", {});
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().message,
            R"(error resolving value "${b}${a}${b}": invalid tokens: ["a" "b"])");
}

TEST(SecretReferenceOf, NamespaceAndNameResolveWithTheirOwnTokens) {
  const TemplateVariables ns_vars = {{"pvc.namespace", "team-a"}};
  const TemplateVariables name_vars = {{"pvc.namespace", "team-a"}, {"pvc.name", "data"}};
  auto ref = SecretReferenceOf(kKeys, Templates("${pvc.name}-creds", "${pvc.namespace}"), ns_vars,
                               name_vars);
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  EXPECT_EQ(*ref, (kube::SecretReference{.name = "data-creds", .namespace_ = "team-a"}));

  auto name_token_in_namespace =
      SecretReferenceOf(kKeys, Templates("creds", "${pvc.name}"), ns_vars, name_vars);
  ASSERT_FALSE(name_token_in_namespace.ok());
  EXPECT_EQ(name_token_in_namespace.error().message,
            R"(error resolving value "${pvc.name}": invalid tokens: ["pvc.name"])");
}

TEST(SecretReferenceOf, NeitherParameterIsNoSecretAndAHalfOrEmptyPairIsAnError) {
  auto none = SecretReferenceOf(kKeys, {{"tier", "gold"}}, {}, {});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, std::nullopt);
  auto half = SecretReferenceOf(kKeys, {{"example/secret-name", "creds"}}, {}, {});
  ASSERT_FALSE(half.ok());
  EXPECT_EQ(half.error().message,
            "failed to get name and namespace template from params: either name and namespace "
            "for Example secrets specified, Both must be specified");
  auto empty = SecretReferenceOf(kKeys, Templates("creds", ""), {}, {});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message,
            "failed to get name and namespace template from params: Example secrets specified "
            "in parameters but value of either namespace or name is empty");
}

TEST(SecretReferenceOf, ResolvedNamesMustBeValid) {
  auto bad_namespace = SecretReferenceOf(kKeys, Templates("creds", "a.b"), {}, {});
  ASSERT_FALSE(bad_namespace.ok());
  EXPECT_EQ(bad_namespace.error().message, R"("a.b" is not a valid namespace name)");
  auto bad_name = SecretReferenceOf(kKeys, Templates("${x}_creds", "ns"), {}, {{"x", "data"}});
  ASSERT_FALSE(bad_name.ok());
  EXPECT_EQ(bad_name.error().message,
            R"("${x}_creds" resolved to "data_creds" which is not a valid secret name)");
}

}  // namespace
}  // namespace csi_params
