// Test support for the GrpcServer tests: a client that writes HTTP/2 bytes
// by hand on a unix socket (requests no gRPC client would send: truncated,
// compressed, cut off) and reads the answer on stream 1 with nghttp2's HPACK
// decoder. Not thread-safe: one test drives it.
#pragma once

#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <map>
#include <string>
#include <string_view>

#include "tests/unit/csi_lite/scripted_server.h"

namespace csi_lite::testing {

inline constexpr std::string_view kClientMagic = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

// Stream 1's answer: every header and trailer field, and the DATA bytes.
struct RawAnswer {
  std::map<std::string, std::string> fields;
  std::string data;
  bool ended = false;  // END_STREAM seen
};

// The request headers of a gRPC call of `path` on stream 1, not ending it.
inline std::string RequestHeaders(const std::string& path,
                                  const std::string& authority = "localhost") {
  return HeadersFrame(0, {{":method", "POST"},
                          {":scheme", "http"},
                          {":path", path},
                          {":authority", authority},
                          {"content-type", "application/grpc"}});
}

class RawClient {
 public:
  explicit RawClient(const std::string& path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
    Send(std::string(kClientMagic) + Frame(kSettings, 0, 0, ""));
  }
  ~RawClient() { Close(); }

  bool connected() const { return connected_; }
  void Send(std::string_view bytes) { (void)::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL); }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  // Reads until stream 1 ends, the server closes, or `timeout` passes.
  RawAnswer Read(std::chrono::milliseconds timeout = std::chrono::seconds(2)) {
    RawAnswer answer;
    nghttp2_hd_inflater* inflater = nullptr;
    nghttp2_hd_inflate_new(&inflater);
    std::string bytes;
    const auto give_up = std::chrono::steady_clock::now() + timeout;
    while (!answer.ended && std::chrono::steady_clock::now() < give_up) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      char buffer[4096];
      ssize_t n = ::read(fd_, buffer, sizeof(buffer));
      if (n <= 0) break;
      bytes.append(buffer, n);
      while (bytes.size() >= 9) {
        size_t length = (static_cast<unsigned char>(bytes[0]) << 16) |
                        (static_cast<unsigned char>(bytes[1]) << 8) |
                        static_cast<unsigned char>(bytes[2]);
        if (bytes.size() < 9 + length) break;
        const uint8_t type = bytes[3], flags = bytes[4];
        const bool stream1 = bytes[8] == 1 && bytes[5] == 0 && bytes[6] == 0 && bytes[7] == 0;
        std::string payload = bytes.substr(9, length);
        bytes.erase(0, 9 + length);
        if (!stream1) continue;
        if (type == kHeaders) Inflate(inflater, payload, answer);
        if (type == kData) answer.data += payload;
        if ((flags & kEndStream) != 0) answer.ended = true;
      }
    }
    nghttp2_hd_inflate_del(inflater);
    return answer;
  }

 private:
  static void Inflate(nghttp2_hd_inflater* inflater, const std::string& block, RawAnswer& answer) {
    auto* in = reinterpret_cast<const uint8_t*>(block.data());
    size_t left = block.size();
    while (true) {
      nghttp2_nv nv;
      int flags = 0;
      ssize_t used = nghttp2_hd_inflate_hd2(inflater, &nv, &flags, in, left, 1);
      if (used < 0) return;
      in += used;
      left -= used;
      if ((flags & NGHTTP2_HD_INFLATE_EMIT) != 0) {
        answer.fields[std::string(reinterpret_cast<char*>(nv.name), nv.namelen)] =
            std::string(reinterpret_cast<char*>(nv.value), nv.valuelen);
      }
      if ((flags & NGHTTP2_HD_INFLATE_FINAL) != 0) {
        nghttp2_hd_inflate_end_headers(inflater);
        return;
      }
      if (used == 0 && (flags & NGHTTP2_HD_INFLATE_EMIT) == 0) return;
    }
  }

  int fd_ = -1;
  bool connected_ = false;
};

}  // namespace csi_lite::testing
