// RestConfig: everything the REST transport needs to reach and authenticate to
// one API server, loaded either from a kubeconfig file or from the service
// account Kubernetes mounts into a pod (the two sources of --kubeconfig).
//
// Loading follows client-go where a kubeconfig that works upstream must work
// here; what we do not implement (credential plugins, auth providers, basic
// auth, impersonation, proxies) is rejected with an error naming it rather
// than silently ignored. Errors name the file and the entry at fault and never
// carry a token, key or other secret value.
#pragma once

#include <string>

#include "base/result.h"

namespace kube {

struct RestConfig {
  // "https://host:port[/path]", never with a trailing slash.
  std::string server;
  // CA bundle (PEM); empty means the system roots.
  std::string ca_pem;
  bool insecure_skip_tls_verify = false;
  // Overrides the name used for SNI and certificate verification.
  std::string tls_server_name;
  std::string client_cert_pem;
  std::string client_key_pem;
  // Bearer authentication, as client-go does it: when bearer_token_file is set
  // it is re-read periodically and its contents win whenever it is readable;
  // bearer_token is the fallback until the first good read (see
  // BearerTokenSource). A kubeconfig with only tokenFile, and the in-cluster
  // config, put the contents read at load time into bearer_token.
  std::string bearer_token;
  std::string bearer_token_file;
  // The context's namespace (in-cluster: the service account's); may be empty.
  std::string namespace_;
  // Filled by callers from --kube-api-qps / --kube-api-burst.
  double qps = 5.0;
  int burst = 10;
  // Filled by callers.
  std::string user_agent;
};

// Where a pod finds its service account; injectable so tests need no pod.
struct InClusterEnvironment {
  std::string service_host;  // KUBERNETES_SERVICE_HOST
  std::string service_port;  // KUBERNETES_SERVICE_PORT
  std::string token_file = "/var/run/secrets/kubernetes.io/serviceaccount/token";
  std::string ca_file = "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt";
  std::string namespace_file = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";

  // The real environment variables and the standard mount paths.
  static InClusterEnvironment FromProcess();
};

// Loads `context` (the file's current-context when empty) from a kubeconfig.
// Relative file references are resolved against the kubeconfig's directory.
base::Result<RestConfig> LoadKubeconfig(const std::string& path, const std::string& context = "");

// Like client-go's rest.InClusterConfig: the token file must be readable; an
// unreadable CA file is logged and the system roots are used instead.
base::Result<RestConfig> LoadInClusterConfig(
    const InClusterEnvironment& env = InClusterEnvironment::FromProcess());

// --kubeconfig and --master as client-go's BuildConfigFromFlags takes them:
// neither given means in-cluster configuration; otherwise the kubeconfig
// (none when its path is empty: no credentials, no TLS settings) with its
// server replaced by `master` when that is given. A master without a scheme
// gets https:// when the config has a CA, a client certificate or
// insecure-skip-tls-verify, else http://. Error: "--master must be a URL or
// host:port" when it has no host or holds whitespace.
base::Result<RestConfig> LoadRestConfig(const std::string& kubeconfig_path,
                                        const std::string& master = "");

}  // namespace kube
