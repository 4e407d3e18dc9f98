#include "kube/client/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kube/api/base64.h"
#include "tests/support/temp_dir.h"

namespace kube {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr char kCaPem[] = "-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n";
constexpr char kCertPem[] = "-----BEGIN CERTIFICATE-----\nCLIENT\n-----END CERTIFICATE-----\n";
constexpr char kKeyPem[] = "-----BEGIN PRIVATE KEY-----\nKEY\n-----END PRIVATE KEY-----\n";
constexpr char kToken[] = "s3cr3t-t0ken-value";

// A kubeconfig with one context "main" -> cluster "c" + user "u"; the cluster
// and user bodies are spliced in (each line indented by the caller).
std::string Kubeconfig(const std::string& cluster, const std::string& user,
                       const std::string& current_context = "main") {
  return "apiVersion: v1\nkind: Config\n"
         "current-context: " +
         current_context +
         "\n"
         "clusters:\n- name: c\n  cluster:\n" +
         cluster + "users:\n- name: u\n  user:\n" + user +
         "contexts:\n- name: main\n  context:\n    cluster: c\n    user: u\n    namespace: "
         "team-a\n";
}

constexpr char kServer[] = "    server: https://api.example.com:6443\n";

class KubeconfigTest : public ::testing::Test {
 protected:
  base::Result<RestConfig> Load(const std::string& yaml, const std::string& context = "") {
    path_ = dir_.Write("kubeconfig", yaml);
    return LoadKubeconfig(path_, context);
  }
  // Loads a config that must fail and returns its error message.
  std::string LoadError(const std::string& yaml) {
    auto result = Load(yaml);
    if (result.ok()) return "<loaded without error>";
    return result.error().message;
  }
  std::string Prefix() const { return "kubeconfig \"" + path_ + "\": "; }

  test::TempDir dir_;
  std::string path_;
};

TEST_F(KubeconfigTest, LoadsEveryClusterAndUserField) {
  auto result =
      Load(Kubeconfig("    server: https://api.example.com:6443/prefix/\n"
                      "    certificate-authority-data: " +
                          EncodeBase64(kCaPem) +
                          "\n"
                          "    tls-server-name: kubernetes.internal\n",
                      std::string("    token: ") + kToken +
                          "\n"
                          "    client-certificate-data: " +
                          EncodeBase64(kCertPem) +
                          "\n"
                          "    client-key-data: " +
                          EncodeBase64(kKeyPem) + "\n"));
  ASSERT_TRUE(result.ok()) << result.error().message;
  const RestConfig& c = *result;
  EXPECT_EQ(c.server, "https://api.example.com:6443/prefix");
  EXPECT_EQ(c.ca_pem, kCaPem);
  EXPECT_FALSE(c.insecure_skip_tls_verify);
  EXPECT_EQ(c.tls_server_name, "kubernetes.internal");
  EXPECT_EQ(c.bearer_token, kToken);
  EXPECT_EQ(c.bearer_token_file, "");
  EXPECT_EQ(c.client_cert_pem, kCertPem);
  EXPECT_EQ(c.client_key_pem, kKeyPem);
  EXPECT_EQ(c.namespace_, "team-a");
}

TEST_F(KubeconfigTest, InsecureSkipTlsVerifyWithoutCa) {
  auto result = Load(Kubeconfig(std::string(kServer) + "    insecure-skip-tls-verify: true\n", ""));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(result->insecure_skip_tls_verify);
  EXPECT_EQ(result->ca_pem, "");
}

TEST_F(KubeconfigTest, PlainHttpServerIsAccepted) {
  auto result = Load(Kubeconfig("    server: http://127.0.0.1:8080\n", ""));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->server, "http://127.0.0.1:8080");
}

TEST_F(KubeconfigTest, ContextWithoutUserIsAnonymous) {
  auto result = Load(
      "current-context: anon\n"
      "clusters:\n- name: c\n  cluster:\n    server: https://h:6443\n"
      "contexts:\n- name: anon\n  context:\n    cluster: c\n");
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->bearer_token, "");
  EXPECT_EQ(result->client_cert_pem, "");
  EXPECT_EQ(result->namespace_, "");
}

constexpr char kTwoContexts[] =
    "current-context: first\n"
    "clusters:\n"
    "- name: one\n  cluster:\n    server: https://one:6443\n"
    "- name: two\n  cluster:\n    server: https://two:6443\n"
    "users:\n- name: u\n  user:\n    token: t\n"
    "contexts:\n"
    "- name: first\n  context:\n    cluster: one\n    user: u\n    namespace: ns-one\n"
    "- name: second\n  context:\n    cluster: two\n    user: u\n    namespace: ns-two\n";

TEST_F(KubeconfigTest, UsesCurrentContextWhenNoneGiven) {
  auto result = Load(kTwoContexts);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->server, "https://one:6443");
  EXPECT_EQ(result->namespace_, "ns-one");
}

TEST_F(KubeconfigTest, ExplicitContextOverridesCurrentContext) {
  auto result = Load(kTwoContexts, "second");
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->server, "https://two:6443");
  EXPECT_EQ(result->namespace_, "ns-two");
}

TEST_F(KubeconfigTest, ExplicitContextWorksWithoutCurrentContext) {
  auto result = Load(Kubeconfig(kServer, "", "\"\""), "main");
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->namespace_, "team-a");
}

TEST_F(KubeconfigTest, ResolvesRelativeFileReferencesAgainstKubeconfigDirectory) {
  dir_.Write("pki/ca.crt", kCaPem);
  dir_.Write("pki/client.crt", kCertPem);
  dir_.Write("pki/client.key", kKeyPem);
  dir_.Write("pki/token", std::string(kToken) + "\n");
  std::string path =
      dir_.Write("conf/kubeconfig",
                 Kubeconfig(std::string(kServer) + "    certificate-authority: ../pki/ca.crt\n",
                            "    tokenFile: ../pki/token\n"
                            "    client-certificate: ../pki/client.crt\n"
                            "    client-key: ../pki/client.key\n"));
  auto result = LoadKubeconfig(path);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->ca_pem, kCaPem);
  EXPECT_EQ(result->client_cert_pem, kCertPem);
  EXPECT_EQ(result->client_key_pem, kKeyPem);
  EXPECT_EQ(result->bearer_token_file, (dir_.path() / "pki/token").string());
}

TEST_F(KubeconfigTest, AbsoluteFileReferencesAreUsedAsGiven) {
  std::string ca = dir_.Write("elsewhere/ca.crt", kCaPem);
  auto result =
      Load(Kubeconfig(std::string(kServer) + "    certificate-authority: " + ca + "\n", ""));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->ca_pem, kCaPem);
}

TEST_F(KubeconfigTest, TokenFileAloneIsReadAtLoadAndKeptForRotation) {
  std::string token_file = dir_.Write("token", std::string("  ") + kToken + "\n");
  auto result = Load(Kubeconfig(kServer, "    tokenFile: " + token_file + "\n"));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->bearer_token, kToken);
  EXPECT_EQ(result->bearer_token_file, token_file);
}

TEST_F(KubeconfigTest, TokenAndTokenFileKeepsBothWithoutReadingTheFile) {
  auto result = Load(Kubeconfig(
      kServer, std::string("    token: ") + kToken + "\n    tokenFile: /not/yet/there\n"));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->bearer_token, kToken);
  EXPECT_EQ(result->bearer_token_file, "/not/yet/there");
}

TEST_F(KubeconfigTest, ClientKeyWithoutCertificateIsIgnored) {
  auto result = Load(Kubeconfig(kServer, "    client-key-data: " + EncodeBase64(kKeyPem) + "\n"));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->client_key_pem, "");
}

TEST_F(KubeconfigTest, UnreadableFileNamesThePath) {
  auto result = LoadKubeconfig((dir_.path() / "missing").string());
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.error().message, HasSubstr("unable to read kubeconfig"));
  EXPECT_THAT(result.error().message, HasSubstr((dir_.path() / "missing").string()));
}

struct ErrorCase {
  const char* name;
  std::string yaml;
  std::string expected;  // substring of the message after the file prefix
  std::string context = "";
};
void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }

std::vector<ErrorCase> ErrorCases() {
  const std::string token_user = std::string("    token: ") + kToken + "\n";
  const std::string ca = "    certificate-authority-data: " + EncodeBase64(kCaPem) + "\n";
  return {
      {"EmptyFile", "", "the file is empty"},
      {"OnlyComments", "# nothing here\n", "the file is empty"},
      {"GarbageYaml", std::string("token: ") + kToken + "\n  : {[\n", "not valid YAML at line"},
      {"TopLevelScalar", "just some text", "the top level is not a mapping"},
      {"NoCurrentContext", Kubeconfig(kServer, token_user, "\"\""),
       "no current-context is set and no context was given"},
      {"CurrentContextNotFound", Kubeconfig(kServer, token_user, "elsewhere"),
       "context \"elsewhere\" not found"},
      {"ExplicitContextNotFound", Kubeconfig(kServer, token_user), "context \"x\" not found", "x"},
      {"ClusterNotFound",
       "current-context: m\ncontexts:\n- name: m\n  context:\n    cluster: y\n    user: u\n",
       "cluster \"y\" not found"},
      {"UserNotFound",
       "current-context: m\nclusters:\n- name: c\n  cluster:\n    server: https://h\n"
       "contexts:\n- name: m\n  context:\n    cluster: c\n    user: z\n",
       "user \"z\" not found"},
      {"ContextWithoutCluster",
       "current-context: m\ncontexts:\n- name: m\n  context:\n    user: u\n",
       "context \"m\" names no cluster"},
      {"ClustersNotAList",
       "current-context: m\nclusters: {}\ncontexts:\n- name: m\n  context:\n"
       "    cluster: c\n",
       "\"clusters\" must be a list"},
      {"ServerMissing", Kubeconfig("    tls-server-name: x\n", token_user),
       "cluster \"c\" has no server"},
      {"ServerNotHttp", Kubeconfig("    server: ftp://h\n", token_user),
       "cluster \"c\": server must be an https:// or http:// URL"},
      {"ServerWithoutScheme", Kubeconfig("    server: h:6443\n", token_user),
       "server must be an https:// or http:// URL"},
      {"ServerNotAString", Kubeconfig("    server: [a, b]\n", token_user),
       "cluster \"c\": server must be a string"},
      {"InsecureNotABool",
       Kubeconfig(std::string(kServer) + "    insecure-skip-tls-verify: maybe\n", token_user),
       "insecure-skip-tls-verify must be true or false"},
      {"BadBase64InCaData",
       Kubeconfig(std::string(kServer) + "    certificate-authority-data: not*base64\n",
                  token_user),
       "cluster \"c\": bad base64 in certificate-authority-data: illegal base64 data at input byte "
       "3"},
      {"BadBase64InClientKeyData",
       Kubeconfig(kServer, "    client-certificate-data: " + EncodeBase64(kCertPem) +
                               "\n    client-key-data: " + std::string(kToken) + "!\n"),
       "user \"u\": bad base64 in client-key-data"},
      {"BadBase64InClientCertData",
       Kubeconfig(kServer, "    client-certificate-data: '%%%'\n    client-key-data: " +
                               EncodeBase64(kKeyPem) + "\n"),
       "user \"u\": bad base64 in client-certificate-data"},
      {"UnreadableCaFile",
       Kubeconfig(std::string(kServer) + "    certificate-authority: /no/such/ca.crt\n",
                  token_user),
       "cluster \"c\": unable to read certificate-authority: open /no/such/ca.crt"},
      {"UnreadableClientCert",
       Kubeconfig(kServer,
                  "    client-certificate: /no/such/c.crt\n    client-key: /no/such/c.key\n"),
       "user \"u\": unable to read client-certificate: open /no/such/c.crt"},
      {"UnreadableClientKey",
       Kubeconfig(kServer, "    client-certificate-data: " + EncodeBase64(kCertPem) +
                               "\n    client-key: /no/such/c.key\n"),
       "user \"u\": unable to read client-key: open /no/such/c.key"},
      {"UnreadableTokenFile", Kubeconfig(kServer, "    tokenFile: /no/such/token\n"),
       "user \"u\": unable to read tokenFile: open /no/such/token"},
      {"CertificateWithoutKey",
       Kubeconfig(kServer, "    client-certificate-data: " + EncodeBase64(kCertPem) + "\n"),
       "client-certificate is set but client-key is not"},
      {"CaFileAndData",
       Kubeconfig(std::string(kServer) + ca + "    certificate-authority: /x\n", token_user),
       "certificate-authority and certificate-authority-data are both set"},
      {"InsecureWithCa",
       Kubeconfig(std::string(kServer) + ca + "    insecure-skip-tls-verify: true\n", token_user),
       "certificate-authority and insecure-skip-tls-verify cannot both be set"},
      {"ExecPlugin",
       Kubeconfig(kServer, token_user + "    exec:\n      command: aws\n      apiVersion: x\n"),
       "user \"u\": \"exec\" is not supported (exec credential plugins)"},
      {"AuthProvider", Kubeconfig(kServer, token_user + "    auth-provider:\n      name: oidc\n"),
       "user \"u\": \"auth-provider\" is not supported (auth-provider plugins)"},
      {"BasicAuth",
       Kubeconfig(kServer, "    username: admin\n    password: " + std::string(kToken) + "\n"),
       "is not supported (basic authentication)"},
      {"Impersonation", Kubeconfig(kServer, token_user + "    as: someone\n"),
       "user \"u\": \"as\" is not supported (impersonation)"},
      {"ProxyUrl",
       Kubeconfig(std::string(kServer) + "    proxy-url: http://proxy:3128\n", token_user),
       "cluster \"c\": \"proxy-url\" is not supported (proxies)"},
  };
}

class KubeconfigErrorTest : public KubeconfigTest,
                            public ::testing::WithParamInterface<ErrorCase> {};

TEST_P(KubeconfigErrorTest, FailsWithMessageNamingFileAndCause) {
  auto result = Load(GetParam().yaml, GetParam().context);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.error().message, StartsWith(Prefix()));
  EXPECT_THAT(result.error().message, HasSubstr(GetParam().expected));
}

TEST_P(KubeconfigErrorTest, ErrorNeverContainsTheTokenOrKey) {
  auto result = Load(GetParam().yaml, GetParam().context);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.error().message, Not(HasSubstr(kToken)));
  EXPECT_THAT(result.error().message, Not(HasSubstr("KEY")));
  EXPECT_THAT(result.error().message, Not(HasSubstr(EncodeBase64(kKeyPem))));
}

INSTANTIATE_TEST_SUITE_P(All, KubeconfigErrorTest, ::testing::ValuesIn(ErrorCases()),
                         [](const auto& info) { return std::string(info.param.name); });

class InClusterConfigTest : public ::testing::Test {
 protected:
  InClusterEnvironment Env() const {
    InClusterEnvironment env;
    env.service_host = "10.96.0.1";
    env.service_port = "443";
    env.token_file = dir_.Write("token", std::string(kToken) + "\n");
    env.ca_file = dir_.Write("ca.crt", kCaPem);
    env.namespace_file = dir_.Write("namespace", "kube-system\n");
    return env;
  }

  test::TempDir dir_;
};

constexpr char kNotInCluster[] =
    "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT "
    "must be defined";

TEST_F(InClusterConfigTest, LoadsServiceAccount) {
  InClusterEnvironment env = Env();
  auto result = LoadInClusterConfig(env);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->server, "https://10.96.0.1:443");
  EXPECT_EQ(result->bearer_token, kToken);
  EXPECT_EQ(result->bearer_token_file, env.token_file);
  EXPECT_EQ(result->ca_pem, kCaPem);
  EXPECT_EQ(result->namespace_, "kube-system");
  EXPECT_FALSE(result->insecure_skip_tls_verify);
}

TEST_F(InClusterConfigTest, BracketsIpv6Host) {
  InClusterEnvironment env = Env();
  env.service_host = "fd00:10:96::1";
  auto result = LoadInClusterConfig(env);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->server, "https://[fd00:10:96::1]:443");
}

TEST_F(InClusterConfigTest, MissingHostOrPortGivesClientGoError) {
  for (auto clear : {&InClusterEnvironment::service_host, &InClusterEnvironment::service_port}) {
    InClusterEnvironment env = Env();
    env.*clear = "";
    auto result = LoadInClusterConfig(env);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message, kNotInCluster);
  }
}

TEST_F(InClusterConfigTest, UnreadableTokenFileIsAnError) {
  InClusterEnvironment env = Env();
  env.token_file = (dir_.path() / "no-token").string();
  auto result = LoadInClusterConfig(env);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.error().message, HasSubstr("unable to load in-cluster configuration"));
  EXPECT_THAT(result.error().message, HasSubstr(env.token_file));
}

TEST_F(InClusterConfigTest, EmptyTokenFileIsAnError) {
  InClusterEnvironment env = Env();
  env.token_file = dir_.Write("empty-token", "\n");
  EXPECT_FALSE(LoadInClusterConfig(env).ok());
}

TEST_F(InClusterConfigTest, MissingNamespaceFileLeavesNamespaceEmpty) {
  InClusterEnvironment env = Env();
  env.namespace_file = (dir_.path() / "no-namespace").string();
  auto result = LoadInClusterConfig(env);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->namespace_, "");
}

TEST_F(InClusterConfigTest, MissingCaFileFallsBackToSystemRootsLikeClientGo) {
  InClusterEnvironment env = Env();
  env.ca_file = (dir_.path() / "no-ca").string();
  auto result = LoadInClusterConfig(env);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->ca_pem, "");
  EXPECT_FALSE(result->insecure_skip_tls_verify);
}

// Sets an environment variable for one test and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = ::getenv(name)) old_ = old;
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~ScopedEnv() { old_ ? ::setenv(name_, old_->c_str(), 1) : ::unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(InClusterEnvironmentTest, FromProcessReadsServiceVariablesAndStandardPaths) {
  ScopedEnv host("KUBERNETES_SERVICE_HOST", "10.0.0.1");
  ScopedEnv port("KUBERNETES_SERVICE_PORT", "6443");
  InClusterEnvironment env = InClusterEnvironment::FromProcess();
  EXPECT_EQ(env.service_host, "10.0.0.1");
  EXPECT_EQ(env.service_port, "6443");
  EXPECT_EQ(env.token_file, "/var/run/secrets/kubernetes.io/serviceaccount/token");
}

TEST(LoadRestConfigTest, EmptyPathMeansInCluster) {
  ScopedEnv host("KUBERNETES_SERVICE_HOST", nullptr);
  auto result = LoadRestConfig("");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message, kNotInCluster);
}

TEST(LoadRestConfigTest, PathMeansKubeconfig) {
  test::TempDir dir;
  auto result = LoadRestConfig(dir.Write("kubeconfig", Kubeconfig(kServer, "    token: t\n")));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->server, "https://api.example.com:6443");
}

// --master, as client-go's BuildConfigFromFlags takes it.
TEST(LoadRestConfigTest, MasterReplacesTheKubeconfigsServerAndKeepsItsCredentials) {
  test::TempDir dir;
  const std::string path = dir.Write("kubeconfig", Kubeconfig(kServer, "    token: t\n"));
  auto result = LoadRestConfig(path, "https://other.example.com:443/");
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->server, "https://other.example.com:443");
  EXPECT_EQ(result->bearer_token, "t");
}

TEST(LoadRestConfigTest, MasterAloneIsTheServerWithoutCredentialsAndNotInCluster) {
  ScopedEnv host("KUBERNETES_SERVICE_HOST", nullptr);
  auto result = LoadRestConfig("", "https://api.example.com:6443");
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->server, "https://api.example.com:6443");
  EXPECT_TRUE(result->bearer_token.empty());
  EXPECT_TRUE(result->ca_pem.empty());
}

TEST(LoadRestConfigTest, MasterWithoutSchemeIsHttpsOnlyWithTlsSettings) {
  auto plain = LoadRestConfig("", "127.0.0.1:8080");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_EQ(plain->server, "http://127.0.0.1:8080");
  test::TempDir dir;
  const std::string insecure = dir.Write(
      "kubeconfig",
      Kubeconfig(std::string(kServer) + "    insecure-skip-tls-verify: true\n", "    token: t\n"));
  auto tls = LoadRestConfig(insecure, "10.0.0.1:6443");
  ASSERT_TRUE(tls.ok()) << tls.error().message;
  EXPECT_EQ(tls->server, "https://10.0.0.1:6443");
}

TEST(LoadRestConfigTest, MasterWithoutHostIsAnError) {
  for (const char* master : {"https://", "http:///", "host name:80"}) {
    auto result = LoadRestConfig("", master);
    ASSERT_FALSE(result.ok()) << master;
    EXPECT_EQ(result.error().message, "--master must be a URL or host:port") << master;
  }
}

}  // namespace
}  // namespace kube
