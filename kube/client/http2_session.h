// Http2Session: one HTTP/2 connection (RFC 9113) carrying any number of
// concurrent requests as streams, as client-go holds a single multiplexed
// connection per API server. A thread of its own reads the connection and
// hands each stream's head and body to the thread that asked; writes go out
// from whichever thread has something to send (a request, a window update),
// the session's thread finishing what the socket could not take at once.
//
// Flow control follows the consumer: a streamed body's bytes are released to
// the server's window only once the caller's `on_data` took them, so a slow
// watch holds back its own stream, not the connection.
//
// Health (client-go's ReadIdleTimeout and PingTimeout, Http2Options): after
// `read_idle` without a byte from the server the session sends a PING, and no
// answer within `ping_timeout` fails the connection and every stream on it, so
// that watches start over on a new connection instead of waiting on a dead peer.
//
// Thread-safe. Once the connection failed or the server sent GOAWAY the
// session takes no new requests (accepting() is false); the streams it has
// go on where the server lets them. Callers hold it by shared_ptr for the
// length of a request; Close() ends every waiting request.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/result.h"
#include "kube/client/connection.h"
#include "kube/client/http2_options.h"
#include "kube/client/http_message.h"
#include "kube/client/http_response_parser.h"

struct nghttp2_session;
struct nghttp2_session_callbacks;

namespace kube {

class Http2Session {
 public:
  // Lower-case names, the pseudo-headers (":method", ":path", ...) first.
  using Header = std::pair<std::string_view, std::string_view>;

  // Takes over `connection`, whose TLS handshake chose "h2", and sends the
  // client preface.
  static base::Result<std::shared_ptr<Http2Session>> Start(std::unique_ptr<Connection> connection,
                                                           const Http2Options& options);
  ~Http2Session();
  Http2Session(const Http2Session&) = delete;
  Http2Session& operator=(const Http2Session&) = delete;

  bool accepting() const;

  // One request. As HttpTransport::Stream: with `on_data`, a 2xx body is
  // handed over as it arrives (after `on_head`) and the response comes back
  // with an empty body; otherwise the body comes back whole. A stop request
  // after the head arrived ends the request with the head's status; before
  // it, and at `deadline`, it is an error ("stopped before the response",
  // "timed out"). Errors say why without naming the request. `unprocessed`
  // is set when the server cannot have acted on the request (it never left,
  // or the server refused the stream), so that it may go out again.
  base::Result<HttpResponse> Exchange(const std::vector<Header>& headers, std::string_view body,
                                      const std::function<bool(std::string_view)>* on_data,
                                      const std::function<void(const ResponseHead&)>& on_head,
                                      std::optional<std::chrono::steady_clock::time_point> deadline,
                                      std::stop_token stop, bool& unprocessed);

  // Fails every open request and closes the connection.
  void Close();

 private:
  struct Stream;
  struct Callbacks;
  using SteadyClock = std::chrono::steady_clock;

  Http2Session(std::unique_ptr<Connection> connection, const Http2Options& options, int wake_fd);
  // nghttp2's callbacks, set to Callbacks' members (http2_callbacks.cpp); null when
  // out of memory.
  static nghttp2_session_callbacks* NewCallbacks();

  void Run();
  // The following run with mu_ held.
  bool live() const { return failure_.empty(); }
  void Flush();
  // Reads and processes one record; false once the socket has nothing more
  // for now, or the connection failed.
  bool ReadOnce();
  // Marks `stream`'s caller to be notified by Run's next round (callbacks
  // run with mu_ held).
  void Signal(const std::shared_ptr<Stream>& stream);
  void CheckHealth(SteadyClock::time_point now);
  void Fail(const std::string& why);
  void Wake();
  std::shared_ptr<Stream> Find(int32_t stream_id);
  void Abandon(Stream& stream);

  const std::chrono::milliseconds read_idle_;
  const std::chrono::milliseconds ping_timeout_;
  const int wake_fd_;
  mutable std::mutex mu_;
  nghttp2_session* session_ = nullptr;      // guarded by mu_
  std::unique_ptr<Connection> connection_;  // guarded by mu_; closed by Run's end
  std::unordered_map<int32_t, std::shared_ptr<Stream>> streams_;  // guarded by mu_
  std::vector<std::shared_ptr<Stream>> signalled_;                // guarded by mu_
  std::vector<std::shared_ptr<Stream>> notifying_;                // the session's thread's only
  std::string out_;         // guarded by mu_: frames not yet written
  size_t out_written_ = 0;  // guarded by mu_
  short write_wants_ = 0;   // guarded by mu_: poll events a write awaits
  bool goaway_ = false;     // guarded by mu_
  bool closing_ = false;    // guarded by mu_
  std::string failure_;     // guarded by mu_: why the connection ended; "" while it lives
  SteadyClock::time_point last_read_;                 // guarded by mu_
  std::optional<SteadyClock::time_point> ping_sent_;  // guarded by mu_
  std::thread thread_;
};

}  // namespace kube
