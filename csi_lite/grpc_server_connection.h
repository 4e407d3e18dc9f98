// ServerConnection: one accepted HTTP/2 connection of csi_lite::GrpcServer
// (csi_lite/grpc_server.h): its nghttp2 server session, the calls open on
// it and the bytes not yet written. The server's thread feeds it what the
// socket has and writes what it queued; a call is answered once its request
// has ended. Not thread-safe: the server's thread alone uses it.
#pragma once

#include <nghttp2/nghttp2.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "csi_lite/grpc_server.h"

namespace csi_lite {

class ServerConnection {
 public:
  // Takes the non-blocking socket `fd`; null, with `fd` closed, if no
  // session could be made.
  static std::unique_ptr<ServerConnection> Open(int fd, const UnaryMethods& methods);
  ~ServerConnection();
  ServerConnection(const ServerConnection&) = delete;
  ServerConnection& operator=(const ServerConnection&) = delete;

  int fd() const { return fd_; }
  // What to poll the socket for: POLLIN, and POLLOUT while bytes wait.
  short Events() const;
  // Reads and writes what `revents` allow; false once the connection is over.
  bool OnReady(short revents);

 private:
  struct Call;  // one stream's request and answer

  ServerConnection(int fd, const UnaryMethods& methods) : fd_(fd), methods_(methods) {}
  bool Read();
  // Writes what the session has queued, as far as the socket takes it.
  bool Flush();
  void Answer(int32_t stream_id, Call& call);

  // nghttp2's callbacks, with the connection as user data.
  static int OnBeginHeaders(nghttp2_session*, const nghttp2_frame* frame, void* self);
  static int OnHeader(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                      size_t name_length, const uint8_t* value, size_t value_length, uint8_t,
                      void* self);
  static int OnData(nghttp2_session*, uint8_t, int32_t stream_id, const uint8_t* data,
                    size_t length, void* self);
  static int OnFrame(nghttp2_session*, const nghttp2_frame* frame, void* self);
  static int OnClose(nghttp2_session*, int32_t stream_id, uint32_t, void* self);

  const int fd_;
  const UnaryMethods& methods_;
  nghttp2_session* session_ = nullptr;
  std::map<int32_t, std::unique_ptr<Call>> calls_;
  std::string unsent_;  // bytes the socket did not take yet
};

}  // namespace csi_lite
