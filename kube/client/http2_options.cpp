#include "kube/client/http2_options.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

#include "base/log.h"

namespace kube {
namespace {

std::chrono::milliseconds Seconds(const std::function<const char*(const char*)>& lookup,
                                  const char* name, std::chrono::milliseconds fallback) {
  const char* raw = lookup(name);
  if (raw == nullptr || *raw == '\0') return fallback;
  const std::string_view text(raw);
  int seconds = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec != std::errc() || end != text.data() + text.size() || seconds < 0) {
    LOG_WARNING("Illegal value for an HTTP/2 setting; the default is used")
        .With("name", name)
        .With("value", text)
        .With("default", std::chrono::nanoseconds(fallback));
    return fallback;
  }
  return std::chrono::seconds(seconds);
}

}  // namespace

Http2Options Http2Options::FromEnvironment(const std::function<const char*(const char*)>& lookup) {
  Http2Options options;
  const char* disable = lookup("DISABLE_HTTP2");
  options.enabled = disable == nullptr || *disable == '\0';
  options.read_idle = Seconds(lookup, "HTTP2_READ_IDLE_TIMEOUT_SECONDS", options.read_idle);
  options.ping_timeout = Seconds(lookup, "HTTP2_PING_TIMEOUT_SECONDS", options.ping_timeout);
  return options;
}

Http2Options Http2Options::FromProcess() {
  return FromEnvironment([](const char* name) { return std::getenv(name); });
}

}  // namespace kube
