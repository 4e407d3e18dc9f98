// Credentials for a local control plane, made in-process with the OpenSSL C
// API (no openssl CLI): a self-signed CA, a serving certificate it signs, a
// key pair for signing service-account tokens, client certificates, and
// random bearer tokens.
//
// All keys are ECDSA P-256 (quick to generate, accepted by kube-apiserver for
// TLS and for service-account signing). Certificates are valid from an hour
// ago (clock skew) for one year. Keys are PKCS#8 PEM, public keys PKIX PEM.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace testsupport {

struct KeyPair {
  std::string private_key_pem;
  std::string public_key_pem;
};

struct CertifiedKey {
  std::string cert_pem;
  std::string key_pem;
};

base::Result<KeyPair> GenerateKeyPair();

// A CA certificate (basicConstraints CA:TRUE, keyCertSign) with `common_name`.
base::Result<CertifiedKey> GenerateCertificateAuthority(std::string_view common_name);

// A TLS server certificate signed by `ca`, with the given subjectAltName
// entries (DNS names and IP addresses).
base::Result<CertifiedKey> IssueServingCertificate(const CertifiedKey& ca,
                                                   std::string_view common_name,
                                                   const std::vector<std::string>& dns_names,
                                                   const std::vector<std::string>& ip_addresses);

// A TLS client certificate (extendedKeyUsage clientAuth) signed by `ca`.
base::Result<CertifiedKey> IssueClientCertificate(const CertifiedKey& ca,
                                                  std::string_view common_name);

// 32 lowercase hex characters from OpenSSL's CSPRNG.
base::Result<std::string> RandomToken();

}  // namespace testsupport
