#include "tests/support/tls_server_context.h"

#include <openssl/pem.h>
#include <openssl/ssl.h>

#include <stdexcept>
#include <string>

namespace testsupport {

ssl_ctx_st* NewTlsServerContext(const CertifiedKey& server, std::string_view owner) {
  SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
  if (ctx == nullptr) throw std::runtime_error(std::string(owner) + ": SSL_CTX_new");
  BIO* cert_bio = BIO_new_mem_buf(server.cert_pem.data(), static_cast<int>(server.cert_pem.size()));
  X509* cert = PEM_read_bio_X509(cert_bio, nullptr, nullptr, nullptr);
  BIO_free(cert_bio);
  BIO* key_bio = BIO_new_mem_buf(server.key_pem.data(), static_cast<int>(server.key_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(key_bio, nullptr, nullptr, nullptr);
  BIO_free(key_bio);
  bool loaded = cert && key && SSL_CTX_use_certificate(ctx, cert) == 1 &&
                SSL_CTX_use_PrivateKey(ctx, key) == 1;
  X509_free(cert);
  EVP_PKEY_free(key);
  if (!loaded) {
    SSL_CTX_free(ctx);
    throw std::runtime_error(std::string(owner) + ": server certificate and key");
  }
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  return ctx;
}

}  // namespace testsupport
