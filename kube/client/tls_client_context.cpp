#include "kube/client/tls_client_context.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "kube/client/http_url.h"
#include "kube/client/openssl_free.h"

namespace kube {
namespace {

using Bio = std::unique_ptr<BIO, OpenSslFree<BIO_free>>;
using Cert = std::unique_ptr<X509, OpenSslFree<X509_free>>;
using PKey = std::unique_ptr<EVP_PKEY, OpenSslFree<EVP_PKEY_free>>;
using Ctx = std::unique_ptr<SSL_CTX, OpenSslFree<SSL_CTX_free>>;

Bio MemoryBio(const std::string& pem) {
  return Bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

base::Error Failure(std::string_view what) {
  return base::Error(std::string(what) + ": " + TakeOpenSslErrors("no detail from OpenSSL"));
}

base::Status LoadCertificateAuthorities(SSL_CTX* ctx, const std::string& ca_pem) {
  if (ca_pem.empty()) {
    if (SSL_CTX_set_default_verify_paths(ctx) != 1) return Failure("loading the system CA roots");
    return {};
  }
  Bio bio = MemoryBio(ca_pem);
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  int added = 0;
  while (Cert cert{PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)}) {
    if (X509_STORE_add_cert(store, cert.get()) != 1) return Failure("adding a CA certificate");
    ++added;
  }
  ERR_clear_error();  // the end of the PEM data reads as an error
  if (added == 0) return base::Error("the certificate authority data holds no PEM certificate");
  return {};
}

base::Status LoadClientCertificate(SSL_CTX* ctx, const RestConfig& config) {
  if (config.client_cert_pem.empty() && config.client_key_pem.empty()) return {};
  if (config.client_cert_pem.empty() || config.client_key_pem.empty()) {
    return base::Error("a client certificate needs both the certificate and its key");
  }
  Bio cert_bio = MemoryBio(config.client_cert_pem);
  Cert leaf(PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr));
  if (!leaf) return Failure("reading the client certificate");
  if (SSL_CTX_use_certificate(ctx, leaf.get()) != 1) return Failure("using the client certificate");
  while (Cert intermediate{PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr)}) {
    if (SSL_CTX_add1_chain_cert(ctx, intermediate.get()) != 1) {
      return Failure("adding the client certificate chain");
    }
  }
  ERR_clear_error();
  Bio key_bio = MemoryBio(config.client_key_pem);
  PKey key(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr));
  // The key's own bytes never go into a message; OpenSSL's reasons do not quote them.
  if (!key) return Failure("reading the client key");
  if (SSL_CTX_use_PrivateKey(ctx, key.get()) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
    return Failure("the client key does not match the client certificate");
  }
  return {};
}

}  // namespace

std::string TakeOpenSslErrors(std::string_view fallback) {
  std::string out;
  while (unsigned long code = ERR_get_error()) {
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    if (!out.empty()) out += "; ";
    out += text;
  }
  return out.empty() ? std::string(fallback) : out;
}

base::Result<std::unique_ptr<TlsClientContext>> TlsClientContext::Create(const RestConfig& config,
                                                                         bool offer_http2) {
  Ctx ctx(SSL_CTX_new(TLS_client_method()));
  if (!ctx) return Failure("creating a TLS context");
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  // Servers (Go's among them) may close without close_notify; the HTTP
  // framing, not TLS, decides whether a response is complete.
  SSL_CTX_set_options(ctx.get(), SSL_OP_IGNORE_UNEXPECTED_EOF);
  // Read-ahead: one read() takes what the socket holds, up to a whole record
  // buffer, instead of one read for each record's 5-byte header and one for
  // its body; a watch stream of small records costs half the system calls.
  // Connection::IdleAndOpen then also asks OpenSSL for bytes it holds.
  SSL_CTX_set_read_ahead(ctx.get(), 1);
  // The HTTP/2 transport (http2_session.h) writes from a buffer that may move
  // between a write that wanted a retry and the retry.
  SSL_CTX_set_mode(ctx.get(), SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  static constexpr unsigned char kHttp2AndHttp1[] = {2,   'h', '2', 8,   'h', 't',
                                                     't', 'p', '/', '1', '.', '1'};
  static constexpr unsigned char kHttp1[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
  if (offer_http2) {
    SSL_CTX_set_alpn_protos(ctx.get(), kHttp2AndHttp1, sizeof kHttp2AndHttp1);
  } else {
    SSL_CTX_set_alpn_protos(ctx.get(), kHttp1, sizeof kHttp1);
  }
  if (config.insecure_skip_tls_verify) {
    SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_NONE, nullptr);
  } else {
    SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
    if (auto status = LoadCertificateAuthorities(ctx.get(), config.ca_pem); !status.ok()) {
      return status.error();
    }
  }
  if (auto status = LoadClientCertificate(ctx.get(), config); !status.ok()) return status.error();
  SSL_CTX_set_session_cache_mode(ctx.get(),
                                 SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
  SSL_CTX_sess_set_new_cb(ctx.get(), &TlsClientContext::OnNewSession);
  std::unique_ptr<TlsClientContext> context(new TlsClientContext(ctx.release()));
  SSL_CTX_set_app_data(context->ctx_, context.get());
  return context;
}

TlsClientContext::~TlsClientContext() {
  if (last_session_) SSL_SESSION_free(last_session_);
  SSL_CTX_free(ctx_);
}

int TlsClientContext::OnNewSession(SSL* ssl, SSL_SESSION* session) {
  auto* self = static_cast<TlsClientContext*>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
  std::lock_guard lock(self->mu_);
  if (self->last_session_) SSL_SESSION_free(self->last_session_);
  self->last_session_ = session;
  return 1;  // we keep the reference
}

base::Result<SSL*> TlsClientContext::NewSsl(const std::string& host) {
  std::unique_ptr<SSL, OpenSslFree<SSL_free>> ssl(SSL_new(ctx_));
  if (!ssl) return Failure("creating a TLS connection");
  if (IsIpLiteral(host)) {
    // No SNI for addresses (RFC 6066 §3); verify against the IP SANs.
    if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl.get()), host.c_str()) != 1) {
      return Failure("setting the verified IP address");
    }
  } else {
    if (SSL_set_tlsext_host_name(ssl.get(), host.c_str()) != 1 ||
        SSL_set1_host(ssl.get(), host.c_str()) != 1) {
      return Failure("setting the server name");
    }
  }
  {
    std::lock_guard lock(mu_);
    if (last_session_) SSL_set_session(ssl.get(), last_session_);
  }
  return ssl.release();
}

std::string TlsClientContext::HandshakeError(SSL* ssl) {
  long verify = SSL_get_verify_result(ssl);
  if (verify != X509_V_OK) {
    ERR_clear_error();
    return std::string("certificate verification failed: ") + X509_verify_cert_error_string(verify);
  }
  return TakeOpenSslErrors("the server ended the TLS handshake");
}

}  // namespace kube
