// gRPC's framing over HTTP/2, shared by csi_lite's client (grpc_socket.h)
// and server (grpc_server.h): the length-prefixed message a request or
// response body carries and the percent-encoded grpc-message. Stateless
// functions, safe from any thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace csi_lite {

// gRPC's default receive limit for one message.
inline constexpr size_t kMaxMessage = 4 * 1024 * 1024;
// The 5 bytes before a message: compressed flag, big-endian length.
inline constexpr size_t kMessagePrefix = 5;

// `message` with its prefix, not compressed.
std::string LengthPrefixed(std::string_view message);

// The message of a body holding exactly one uncompressed message; nullopt
// for anything else (short, compressed, trailing bytes).
std::optional<std::string_view> SingleMessage(std::string_view body);

// grpc-message's encoding: bytes outside printable ASCII, and '%', as %XX.
std::string PercentEncode(std::string_view s);
std::string PercentDecode(std::string_view s);

}  // namespace csi_lite
