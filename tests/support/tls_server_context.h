// A server-side OpenSSL context presenting a certificate and key, for the
// in-test HTTPS servers (TLS 1.2 or newer, OpenSSL's defaults otherwise).
#pragma once

#include <string_view>

#include "tests/support/credentials.h"

struct ssl_ctx_st;  // OpenSSL's SSL_CTX

namespace testsupport {

// The caller owns the context (SSL_CTX_free). Throws std::runtime_error
// "<owner>: <what failed>" when the credentials do not load.
ssl_ctx_st* NewTlsServerContext(const CertifiedKey& server, std::string_view owner);

}  // namespace testsupport
