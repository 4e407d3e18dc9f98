// Test support for the csi_lite tests: a unix-socket HTTP/2 server that
// answers the first call with frames written by hand, for the answers a gRPC
// server does not give on demand - frames split anywhere, trailers-only,
// odd statuses, a stream reset, the connection closed. HPACK as literals
// without indexing, so headers need no table.
#pragma once

#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace csi_lite::testing {

inline constexpr uint8_t kData = 0, kHeaders = 1, kRstStream = 3, kSettings = 4;
inline constexpr uint8_t kEndStream = 1, kEndHeaders = 4;

inline std::string Frame(uint8_t type, uint8_t flags, uint32_t stream, std::string_view payload) {
  std::string frame;
  for (int shift = 16; shift >= 0; shift -= 8) frame += static_cast<char>(payload.size() >> shift);
  frame += static_cast<char>(type);
  frame += static_cast<char>(flags);
  for (int shift = 24; shift >= 0; shift -= 8) frame += static_cast<char>(stream >> shift);
  return frame + std::string(payload);
}

// A HEADERS frame on stream 1 (names and values under 127 bytes).
inline std::string HeadersFrame(uint8_t flags,
                                const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string block;
  for (const auto& [name, value] : fields) {
    block += '\0';  // literal header field without indexing, new name
    block += static_cast<char>(name.size());
    block += name;
    block += static_cast<char>(value.size());
    block += value;
  }
  return Frame(kHeaders, flags | kEndHeaders, 1, block);
}

// The 5-byte gRPC prefix (not compressed, big-endian length) and `message`.
inline std::string LengthPrefixed(std::string_view message) {
  std::string out(1, '\0');
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>(message.size() >> shift);
  return out + std::string(message);
}

inline std::string ResponseHead() {
  return HeadersFrame(0, {{":status", "200"}, {"content-type", "application/grpc"}});
}
inline std::string OkTrailers() { return HeadersFrame(kEndStream, {{"grpc-status", "0"}}); }

class ScriptedServer {
 public:
  // Once the first request ended, writes each of `writes` (any bytes: a
  // frame, part of one, several) on its own, 20 ms apart so that the
  // client reads them separately; then holds the connection open until the
  // client closes it, or closes it itself when `close_after` is set.
  explicit ScriptedServer(std::vector<std::string> writes, bool close_after = false)
      : dir_(MakeTempDir()) {
    listener_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socket_path().c_str(), sizeof(address.sun_path) - 1);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    ::listen(listener_, 4);
    thread_ = std::thread(
        [this, writes = std::move(writes), close_after] { Serve(writes, close_after); });
  }
  ~ScriptedServer() {
    done_ = true;
    thread_.join();
    ::close(listener_);
    std::filesystem::remove_all(dir_);
  }

  std::string socket_path() const { return dir_ + "/csi.sock"; }

 private:
  static std::string MakeTempDir() {
    char pattern[] = "/tmp/litXXXXXX";
    return ::mkdtemp(pattern);
  }

  // Waits up to 10 ms for `fd` to be readable; false when the test ended.
  bool Readable(int fd) {
    pollfd p{fd, POLLIN, 0};
    while (!done_) {
      if (::poll(&p, 1, 10) > 0) return true;
    }
    return false;
  }

  // The client may have gone: what it missed, its call's result shows.
  static void Write(int fd, std::string_view bytes) {
    if (::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) < 0) return;
  }

  // Reads exactly `n` bytes; false on EOF or when the test ended.
  bool ReadExactly(int fd, size_t n, std::string& out) {
    out.clear();
    while (out.size() < n) {
      if (!Readable(fd)) return false;
      char buffer[4096];
      ssize_t got = ::read(fd, buffer, std::min(sizeof(buffer), n - out.size()));
      if (got <= 0) return false;
      out.append(buffer, got);
    }
    return true;
  }

  void Serve(const std::vector<std::string>& writes, bool close_after) {
    if (!Readable(listener_)) return;
    int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    Write(fd, Frame(kSettings, 0, 0, ""));
    std::string bytes;
    bool request_ended = ReadExactly(fd, 24, bytes);  // the client's magic
    while (request_ended) {
      std::string header, payload;
      if (!ReadExactly(fd, 9, header)) return (void)::close(fd);
      size_t length = (static_cast<unsigned char>(header[0]) << 16) |
                      (static_cast<unsigned char>(header[1]) << 8) |
                      static_cast<unsigned char>(header[2]);
      if (!ReadExactly(fd, length, payload)) return (void)::close(fd);
      if (header[3] == kData && (header[4] & kEndStream) != 0) break;
    }
    for (const std::string& write : writes) {
      Write(fd, write);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!close_after) {
      while (Readable(fd)) {
        char buffer[4096];
        if (::read(fd, buffer, sizeof(buffer)) <= 0) break;
      }
    }
    ::close(fd);
  }

  const std::string dir_;
  int listener_ = -1;
  std::atomic<bool> done_ = false;
  std::thread thread_;
};

}  // namespace csi_lite::testing
