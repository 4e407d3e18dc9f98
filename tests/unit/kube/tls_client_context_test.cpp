#include "kube/client/tls_client_context.h"

#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include <memory>

#include "kube/client/openssl_free.h"

namespace kube {
namespace {

// A watch stream arrives as many small records: with read-ahead, one read()
// takes all the socket holds rather than a header and a body per record.
TEST(TlsClientContextTest, ConnectionsReadAhead) {
  RestConfig config;
  config.server = "https://127.0.0.1:6443";
  config.insecure_skip_tls_verify = true;
  auto context = TlsClientContext::Create(config);
  ASSERT_TRUE(context.ok()) << context.error().message;
  auto ssl = (*context)->NewSsl("127.0.0.1");
  ASSERT_TRUE(ssl.ok()) << ssl.error().message;
  std::unique_ptr<SSL, OpenSslFree<SSL_free>> owned(*ssl);
  EXPECT_EQ(SSL_get_read_ahead(owned.get()), 1);
}

}  // namespace
}  // namespace kube
