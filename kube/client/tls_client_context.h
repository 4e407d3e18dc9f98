// TlsClientContext: the TLS settings of a RestConfig, made once per transport:
// TLS 1.2 or newer; the peer verified against the config's CA bundle (or the
// system roots when it has none) unless insecure-skip-tls-verify; the client
// certificate and key presented when the server asks. NewSsl prepares one
// connection: SNI and the verified name (a DNS name, or an IP literal checked
// against the certificate's IP addresses), resuming the last session the
// server handed out so that reconnects skip the full handshake. ALPN offers
// "h2" before "http/1.1" when asked to (Connection::NegotiatedProtocol says
// which the server chose).
//
// Thread-safe. Errors name the setting at fault, never a key's contents.
#pragma once

#include <openssl/types.h>  // SSL, SSL_CTX; the .cpp includes ssl.h

#include <memory>
#include <mutex>
#include <string>

#include "base/result.h"
#include "kube/client/config.h"

// Declared by <openssl/ssl.h>, which this header leaves to the .cpp.
typedef struct ssl_session_st SSL_SESSION;

namespace kube {

class TlsClientContext {
 public:
  static base::Result<std::unique_ptr<TlsClientContext>> Create(const RestConfig& config,
                                                                bool offer_http2 = false);
  ~TlsClientContext();
  TlsClientContext(const TlsClientContext&) = delete;
  TlsClientContext& operator=(const TlsClientContext&) = delete;

  // A client SSL for a connection whose certificate must name `host`; the
  // caller owns it (SSL_free).
  base::Result<SSL*> NewSsl(const std::string& host);

  // Why the handshake of `ssl` failed, after SSL_connect reported an error:
  // the certificate verification result when that failed, else OpenSSL's
  // error queue (which it clears).
  static std::string HandshakeError(SSL* ssl);

 private:
  explicit TlsClientContext(SSL_CTX* ctx) : ctx_(ctx) {}
  static int OnNewSession(SSL* ssl, SSL_SESSION* session);

  SSL_CTX* const ctx_;
  std::mutex mu_;                        // guards last_session_
  SSL_SESSION* last_session_ = nullptr;  // owned reference, or null
};

// OpenSSL's error queue as text ("; "-separated), which it clears; `fallback` when empty.
std::string TakeOpenSslErrors(std::string_view fallback);

}  // namespace kube
