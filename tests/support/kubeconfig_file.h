// WriteKubeconfig: a kubeconfig for one identity on the local control plane
// (or a scripted API server), in the shape client-go and our
// kube::LoadKubeconfig read: one cluster (server plus certificate-authority
// file, so TLS is verified for real; no file for plain HTTP), one user with a
// bearer token, one context, current-context set. Owner-only permissions,
// since it holds the token.
#pragma once

#include <string>

#include "base/result.h"

namespace testsupport {

struct KubeconfigSpec {
  std::string server;   // https://127.0.0.1:<port>, or http:// for a scripted server
  std::string ca_file;  // absolute path; none for http://
  std::string user;     // names the user and context entries
  std::string token;
};

base::Status WriteKubeconfig(const std::string& path, const KubeconfigSpec& spec);

}  // namespace testsupport
