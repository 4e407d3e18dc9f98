#include "kube/client/config.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>

#include "base/ascii.h"
#include "base/file.h"
#include "base/log.h"
#include "kube/api/base64.h"
#include "kube/client/token_source.h"

namespace kube {
namespace {

// Same text as client-go's rest.ErrNotInCluster, which scripts may match on.
constexpr char kNotInCluster[] =
    "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
    "KUBERNETES_SERVICE_PORT must be defined";

// Kubeconfig features that change where we connect or who we are; ignoring
// them would silently talk to the wrong place or as the wrong identity.
struct UnsupportedKey {
  const char* key;
  const char* feature;
};
constexpr UnsupportedKey kUnsupportedClusterKeys[] = {
    {"proxy-url", "proxies"},
};
constexpr UnsupportedKey kUnsupportedUserKeys[] = {
    {"exec", "exec credential plugins"},
    {"auth-provider", "auth-provider plugins"},
    {"username", "basic authentication"},
    {"password", "basic authentication"},
    {"as", "impersonation"},
    {"as-uid", "impersonation"},
    {"as-groups", "impersonation"},
    {"as-user-extra", "impersonation"},
};

// The value at `key` of a mapping; a null node when absent or when `map` is
// not a mapping (yaml-cpp throws on subscripting scalars and on using absent
// keys).
YAML::Node Child(const YAML::Node& map, const char* key) {
  if (!map.IsMap()) return YAML::Node();
  const YAML::Node value = map[key];
  return value.IsDefined() ? value : YAML::Node();
}

// Reads typed fields of one kubeconfig mapping, remembering the first type
// error so that callers read every field and check once. Messages name the
// field, never its value.
class FieldReader {
 public:
  FieldReader(const YAML::Node& node, std::string where) : node_(node), where_(std::move(where)) {
    if (!node_.IsNull() && !node_.IsMap()) error_ = fmt::format("{} must be a mapping", where_);
  }

  std::string String(const char* key) {
    const YAML::Node value = Child(node_, key);
    if (value.IsNull()) return "";
    if (value.IsScalar()) return value.Scalar();
    Fail(key, "a string");
    return "";
  }

  bool Bool(const char* key) {
    const YAML::Node value = Child(node_, key);
    bool result = false;
    if (!value.IsNull() && !(value.IsScalar() && YAML::convert<bool>::decode(value, result))) {
      Fail(key, "true or false");
    }
    return result;
  }

  bool Has(const char* key) const { return !Child(node_, key).IsNull(); }

  const std::optional<std::string>& error() const { return error_; }

 private:
  void Fail(const char* key, const char* expected) {
    if (!error_) error_ = fmt::format("{}: {} must be {}", where_, key, expected);
  }

  const YAML::Node node_;
  const std::string where_;
  std::optional<std::string> error_;
};

std::string Quoted(std::string_view kind, std::string_view name) {
  return fmt::format("{} \"{}\"", kind, name);
}

std::optional<std::string> FindUnsupported(const FieldReader& fields, std::string_view owner,
                                           std::span<const UnsupportedKey> keys) {
  for (const UnsupportedKey& u : keys) {
    if (fields.Has(u.key)) {
      return fmt::format("{}: \"{}\" is not supported ({})", owner, u.key, u.feature);
    }
  }
  return std::nullopt;
}

// Turns the parsed YAML of one kubeconfig file into a RestConfig. Every error
// message is prefixed with the file's path.
class KubeconfigLoader {
 public:
  explicit KubeconfigLoader(const std::string& path) : path_(path) {
    std::error_code ec;
    auto absolute = std::filesystem::absolute(path, ec);
    dir_ = (ec ? std::filesystem::path(path) : absolute).parent_path();
  }

  base::Result<RestConfig> Load(const YAML::Node& root, const std::string& context) const {
    if (root.IsNull()) return Fail("the file is empty");
    if (!root.IsMap()) return Fail("not a kubeconfig: the top level is not a mapping");
    FieldReader top(root, "kubeconfig");
    std::string context_name = context.empty() ? top.String("current-context") : context;
    if (top.error()) return Fail(*top.error());
    if (context_name.empty()) return Fail("no current-context is set and no context was given");

    auto context_node = FindNamed(root, "contexts", "context", "context", context_name);
    if (!context_node.ok()) return Fail(context_node.error().message);
    FieldReader ctx(*context_node, Quoted("context", context_name));
    std::string cluster_name = ctx.String("cluster");
    std::string user_name = ctx.String("user");
    RestConfig config;
    config.namespace_ = ctx.String("namespace");
    if (ctx.error()) return Fail(*ctx.error());
    if (cluster_name.empty()) return Fail(Quoted("context", context_name) + " names no cluster");

    auto cluster_node = FindNamed(root, "clusters", "cluster", "cluster", cluster_name);
    if (!cluster_node.ok()) return Fail(cluster_node.error().message);
    if (auto status = LoadCluster(*cluster_node, Quoted("cluster", cluster_name), config);
        !status.ok()) {
      return Fail(status.error().message);
    }
    // A context without a user is anonymous access, as in client-go.
    if (!user_name.empty()) {
      auto user_node = FindNamed(root, "users", "user", "user", user_name);
      if (!user_node.ok()) return Fail(user_node.error().message);
      if (auto status = LoadUser(*user_node, Quoted("user", user_name), config); !status.ok()) {
        return Fail(status.error().message);
      }
    }
    return config;
  }

  base::Error Fail(std::string_view what) const {
    return base::Error(fmt::format("kubeconfig \"{}\": {}", path_, what));
  }

 private:
  // The body (entry[body_key]) of the entry called `name` in the top-level
  // list `list_key` (clusters, users, contexts).
  static base::Result<YAML::Node> FindNamed(const YAML::Node& root, const char* list_key,
                                            const char* body_key, std::string_view kind,
                                            const std::string& name) {
    const YAML::Node list = Child(root, list_key);
    if (!list.IsNull() && !list.IsSequence()) {
      return base::Error(fmt::format("\"{}\" must be a list", list_key));
    }
    for (const YAML::Node& entry : list) {
      const YAML::Node entry_name = Child(entry, "name");
      if (entry_name.IsScalar() && entry_name.Scalar() == name) return Child(entry, body_key);
    }
    return base::Error(Quoted(kind, name) + " not found");
  }

  base::Status LoadCluster(const YAML::Node& node, const std::string& owner,
                           RestConfig& config) const {
    FieldReader fields(node, owner);
    std::string server = fields.String("server");
    std::string ca_file = fields.String("certificate-authority");
    std::string ca_data = fields.String("certificate-authority-data");
    config.insecure_skip_tls_verify = fields.Bool("insecure-skip-tls-verify");
    config.tls_server_name = fields.String("tls-server-name");
    if (fields.error()) return base::Error(*fields.error());
    if (auto unsupported = FindUnsupported(fields, owner, kUnsupportedClusterKeys)) {
      return base::Error(*unsupported);
    }

    if (server.empty()) return base::Error(owner + " has no server");
    if (!server.starts_with("https://") && !server.starts_with("http://")) {
      // The URL itself stays out of the message: it may carry user:password.
      return base::Error(owner + ": server must be an https:// or http:// URL");
    }
    while (server.ends_with('/')) server.pop_back();
    config.server = std::move(server);

    auto ca = FileOrData(owner, "certificate-authority", ca_file, ca_data);
    if (!ca.ok()) return ca.error();
    config.ca_pem = std::move(ca).value();
    if (config.insecure_skip_tls_verify && !config.ca_pem.empty()) {
      return base::Error(owner +
                         ": certificate-authority and insecure-skip-tls-verify cannot both be set");
    }
    return base::Status::Ok();
  }

  base::Status LoadUser(const YAML::Node& node, const std::string& owner,
                        RestConfig& config) const {
    FieldReader fields(node, owner);
    std::string token = fields.String("token");
    std::string token_file = Resolve(fields.String("tokenFile"));
    std::string cert_file = fields.String("client-certificate");
    std::string cert_data = fields.String("client-certificate-data");
    std::string key_file = fields.String("client-key");
    std::string key_data = fields.String("client-key-data");
    if (fields.error()) return base::Error(*fields.error());
    if (auto unsupported = FindUnsupported(fields, owner, kUnsupportedUserKeys)) {
      return base::Error(*unsupported);
    }

    // client-go: a token is used as is and tokenFile, if also set, takes over
    // once readable; a tokenFile alone must be readable now.
    if (!token.empty()) {
      config.bearer_token = std::move(token);
      config.bearer_token_file = std::move(token_file);
    } else if (!token_file.empty()) {
      auto read = ReadTokenFile(token_file);
      if (!read.ok()) return read.error().Wrap(owner + ": unable to read tokenFile");
      config.bearer_token = std::move(read).value();
      config.bearer_token_file = std::move(token_file);
    }

    // client-go ignores a key without a certificate.
    if (cert_file.empty() && cert_data.empty()) return base::Status::Ok();
    if (key_file.empty() && key_data.empty()) {
      return base::Error(owner + ": client-certificate is set but client-key is not");
    }
    auto cert = FileOrData(owner, "client-certificate", cert_file, cert_data);
    if (!cert.ok()) return cert.error();
    auto key = FileOrData(owner, "client-key", key_file, key_data);
    if (!key.ok()) return key.error();
    config.client_cert_pem = std::move(cert).value();
    config.client_key_pem = std::move(key).value();
    return base::Status::Ok();
  }

  // Contents of a "<field>" (file path) / "<field>-data" (base64) pair.
  base::Result<std::string> FileOrData(const std::string& owner, std::string_view field,
                                       const std::string& file, const std::string& data) const {
    if (!file.empty() && !data.empty()) {
      return base::Error(fmt::format("{}: {} and {}-data are both set", owner, field, field));
    }
    if (!data.empty()) {
      auto decoded = DecodeBase64(data);
      if (!decoded.ok()) {
        return decoded.error().Wrap(fmt::format("{}: bad base64 in {}-data", owner, field));
      }
      return decoded;
    }
    if (file.empty()) return std::string();
    auto contents = base::ReadFile(Resolve(file));
    if (!contents.ok()) {
      return contents.error().Wrap(fmt::format("{}: unable to read {}", owner, field));
    }
    return contents;
  }

  // Relative references are relative to the kubeconfig's directory, as in kubectl.
  std::string Resolve(const std::string& file) const {
    if (file.empty() || std::filesystem::path(file).is_absolute()) return file;
    return (dir_ / file).lexically_normal().string();
  }

  std::string path_;
  std::filesystem::path dir_;
};

std::string JoinHostPort(const std::string& host, const std::string& port) {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + port;
  return host + ":" + port;
}

std::string EnvOrEmpty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

InClusterEnvironment InClusterEnvironment::FromProcess() {
  InClusterEnvironment env;
  env.service_host = EnvOrEmpty("KUBERNETES_SERVICE_HOST");
  env.service_port = EnvOrEmpty("KUBERNETES_SERVICE_PORT");
  return env;
}

base::Result<RestConfig> LoadKubeconfig(const std::string& path, const std::string& context) {
  auto text = base::ReadFile(path);
  if (!text.ok()) return text.error().Wrap("unable to read kubeconfig");
  KubeconfigLoader loader(path);
  try {
    return loader.Load(YAML::Load(*text), context);
  } catch (const YAML::ParserException& e) {
    return loader.Fail(fmt::format("not valid YAML at line {}, column {}: {}", e.mark.line + 1,
                                   e.mark.column + 1, e.msg));
  } catch (const std::exception& e) {
    return loader.Fail(fmt::format("unable to parse: {}", e.what()));
  }
}

base::Result<RestConfig> LoadInClusterConfig(const InClusterEnvironment& env) {
  if (env.service_host.empty() || env.service_port.empty()) return base::Error(kNotInCluster);
  auto token = ReadTokenFile(env.token_file);
  if (!token.ok()) return token.error().Wrap("unable to load in-cluster configuration");

  RestConfig config;
  config.server = "https://" + JoinHostPort(env.service_host, env.service_port);
  config.bearer_token = std::move(token).value();
  config.bearer_token_file = env.token_file;
  if (auto ca = base::ReadFile(env.ca_file); ca.ok()) {
    config.ca_pem = std::move(ca).value();
  } else {
    LOG_ERROR("Expected to load root CA config, but got err").With("err", ca.error().message);
  }
  if (auto ns = base::ReadFile(env.namespace_file); ns.ok()) {
    config.namespace_ = base::TrimSpace(*ns);
  }
  return config;
}

base::Result<RestConfig> LoadRestConfig(const std::string& kubeconfig_path,
                                        const std::string& master) {
  if (kubeconfig_path.empty() && master.empty()) return LoadInClusterConfig();
  base::Result<RestConfig> config =
      kubeconfig_path.empty() ? RestConfig{} : LoadKubeconfig(kubeconfig_path);
  if (!config.ok() || master.empty()) return config;
  std::string_view host = master;
  std::string scheme;
  for (std::string_view known : {"https://", "http://"}) {
    if (host.starts_with(known)) {
      scheme = known;
      host.remove_prefix(known.size());
    }
  }
  while (host.ends_with('/')) host.remove_suffix(1);
  if (host.empty() || host.find_first_of(" \t\r\n") != std::string_view::npos) {
    return base::Error("--master must be a URL or host:port");
  }
  if (scheme.empty()) {
    const bool tls = !config->ca_pem.empty() || !config->client_cert_pem.empty() ||
                     config->insecure_skip_tls_verify;
    scheme = tls ? "https://" : "http://";
  }
  config->server = scheme + std::string(host);
  return config;
}

}  // namespace kube
