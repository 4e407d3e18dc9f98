#include "tests/support/credentials.h"

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>

#include "kube/client/openssl_free.h"

namespace testsupport {
namespace {

using PKey = std::unique_ptr<EVP_PKEY, kube::OpenSslFree<EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, kube::OpenSslFree<X509_free>>;
using Bio = std::unique_ptr<BIO, kube::OpenSslFree<BIO_free_all>>;
using BigNum = std::unique_ptr<BIGNUM, kube::OpenSslFree<BN_free>>;
using Extension = std::unique_ptr<X509_EXTENSION, kube::OpenSslFree<X509_EXTENSION_free>>;

constexpr long kNotBeforeSkewSeconds = 3600;
constexpr long kValiditySeconds = 365L * 24 * 3600;

// The oldest queued OpenSSL error, prefixed with what we were doing.
base::Error OpenSslError(std::string_view what) {
  char reason[256] = "unknown error";
  if (unsigned long code = ERR_get_error(); code != 0) {
    ERR_error_string_n(code, reason, sizeof(reason));
  }
  ERR_clear_error();
  return base::Error(std::string(what) + ": " + reason);
}

base::Result<PKey> NewKey() {
  PKey key(EVP_EC_gen("P-256"));
  if (!key) return OpenSslError("generate P-256 key");
  return key;
}

// Runs `write` against a memory BIO and returns what it wrote.
template <class Write>
base::Result<std::string> ToPem(std::string_view what, Write write) {
  Bio bio(BIO_new(BIO_s_mem()));
  if (!bio || write(bio.get()) != 1) return OpenSslError("encode " + std::string(what));
  char* data = nullptr;
  long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(size));
}

base::Result<std::string> PrivateKeyPem(EVP_PKEY* key) {
  return ToPem("private key", [&](BIO* bio) {
    return PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  });
}

base::Result<std::string> CertificatePem(X509* cert) {
  return ToPem("certificate", [&](BIO* bio) { return PEM_write_bio_X509(bio, cert); });
}

base::Status AddExtension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  Extension ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str()));
  if (!ext || X509_add_ext(cert, ext.get(), -1) != 1) {
    return OpenSslError(std::string("add extension ") + OBJ_nid2sn(nid) + "=" + value);
  }
  return {};
}

// An unsigned v3 certificate for `key` named `common_name`, with a random
// serial and the validity window; the caller adds issuer, extensions, signature.
base::Result<Cert> NewCertificate(EVP_PKEY* key, std::string_view common_name) {
  Cert cert(X509_new());
  BigNum serial(BN_new());
  if (!cert || !serial || X509_set_version(cert.get(), X509_VERSION_3) != 1 ||
      BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1 ||
      BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())) == nullptr ||
      X509_gmtime_adj(X509_getm_notBefore(cert.get()), -kNotBeforeSkewSeconds) == nullptr ||
      X509_gmtime_adj(X509_getm_notAfter(cert.get()), kValiditySeconds) == nullptr ||
      X509_set_pubkey(cert.get(), key) != 1 ||
      X509_NAME_add_entry_by_txt(X509_get_subject_name(cert.get()), "CN", MBSTRING_UTF8,
                                 reinterpret_cast<const unsigned char*>(common_name.data()),
                                 static_cast<int>(common_name.size()), -1, 0) != 1) {
    return OpenSslError("build certificate");
  }
  return cert;
}

// Sets the issuer, adds `extensions` (nid, value) and signs with SHA-256.
base::Status SignCertificate(X509* cert, X509* issuer, EVP_PKEY* issuer_key,
                             const std::vector<std::pair<int, std::string>>& extensions) {
  if (X509_set_issuer_name(cert, X509_get_subject_name(issuer)) != 1) {
    return OpenSslError("set issuer");
  }
  for (const auto& [nid, value] : extensions) {
    if (auto status = AddExtension(cert, issuer, nid, value); !status.ok()) return status;
  }
  if (X509_sign(cert, issuer_key, EVP_sha256()) <= 0) return OpenSslError("sign certificate");
  return {};
}

base::Result<CertifiedKey> Encode(X509* cert, EVP_PKEY* key) {
  auto cert_pem = CertificatePem(cert);
  if (!cert_pem.ok()) return cert_pem.error();
  auto key_pem = PrivateKeyPem(key);
  if (!key_pem.ok()) return key_pem.error();
  return CertifiedKey{std::move(*cert_pem), std::move(*key_pem)};
}

}  // namespace

base::Result<KeyPair> GenerateKeyPair() {
  auto key = NewKey();
  if (!key.ok()) return key.error();
  auto private_pem = PrivateKeyPem(key->get());
  if (!private_pem.ok()) return private_pem.error();
  auto public_pem =
      ToPem("public key", [&](BIO* bio) { return PEM_write_bio_PUBKEY(bio, key->get()); });
  if (!public_pem.ok()) return public_pem.error();
  return KeyPair{std::move(*private_pem), std::move(*public_pem)};
}

base::Result<CertifiedKey> GenerateCertificateAuthority(std::string_view common_name) {
  auto key = NewKey();
  if (!key.ok()) return key.error();
  auto cert = NewCertificate(key->get(), common_name);
  if (!cert.ok()) return cert.error();
  // Self-signed: the certificate is its own issuer. The subject key id must
  // exist before the authority key id can refer to it.
  auto status = SignCertificate(cert->get(), cert->get(), key->get(),
                                {{NID_basic_constraints, "critical,CA:TRUE"},
                                 {NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature"},
                                 {NID_subject_key_identifier, "hash"},
                                 {NID_authority_key_identifier, "keyid:always"}});
  if (!status.ok()) return status.error();
  return Encode(cert->get(), key->get());
}

namespace {

// A certificate for `common_name` signed by `ca`, with `extensions` besides
// the key identifiers.
base::Result<CertifiedKey> IssueCertificate(const CertifiedKey& ca, std::string_view common_name,
                                            std::vector<std::pair<int, std::string>> extensions) {
  Bio cert_bio(BIO_new_mem_buf(ca.cert_pem.data(), static_cast<int>(ca.cert_pem.size())));
  Bio key_bio(BIO_new_mem_buf(ca.key_pem.data(), static_cast<int>(ca.key_pem.size())));
  Cert ca_cert(cert_bio ? PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr) : nullptr);
  PKey ca_key(key_bio ? PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr)
                      : nullptr);
  if (!ca_cert || !ca_key) return OpenSslError("parse CA certificate and key");

  auto key = NewKey();
  if (!key.ok()) return key.error();
  auto cert = NewCertificate(key->get(), common_name);
  if (!cert.ok()) return cert.error();
  extensions.insert(extensions.end(), {{NID_subject_key_identifier, "hash"},
                                       {NID_authority_key_identifier, "keyid:always"}});
  auto status = SignCertificate(cert->get(), ca_cert.get(), ca_key.get(), extensions);
  if (!status.ok()) return status.error();
  return Encode(cert->get(), key->get());
}

}  // namespace

base::Result<CertifiedKey> IssueServingCertificate(const CertifiedKey& ca,
                                                   std::string_view common_name,
                                                   const std::vector<std::string>& dns_names,
                                                   const std::vector<std::string>& ip_addresses) {
  std::string alt_names;
  for (const auto& name : dns_names) alt_names += (alt_names.empty() ? "DNS:" : ",DNS:") + name;
  for (const auto& ip : ip_addresses) alt_names += (alt_names.empty() ? "IP:" : ",IP:") + ip;
  if (alt_names.empty()) return base::Error("a serving certificate needs a subjectAltName");
  return IssueCertificate(ca, common_name,
                          {{NID_basic_constraints, "critical,CA:FALSE"},
                           {NID_key_usage, "critical,digitalSignature"},
                           {NID_ext_key_usage, "serverAuth"},
                           {NID_subject_alt_name, alt_names}});
}

base::Result<CertifiedKey> IssueClientCertificate(const CertifiedKey& ca,
                                                  std::string_view common_name) {
  return IssueCertificate(ca, common_name,
                          {{NID_basic_constraints, "critical,CA:FALSE"},
                           {NID_key_usage, "critical,digitalSignature"},
                           {NID_ext_key_usage, "clientAuth"}});
}

base::Result<std::string> RandomToken() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) return OpenSslError("random token");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (unsigned char b : bytes) {
    token.push_back(kHex[b >> 4]);
    token.push_back(kHex[b & 0xf]);
  }
  return token;
}

}  // namespace testsupport
