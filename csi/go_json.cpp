#include "csi/go_json.h"

#include "base/strconv.h"

namespace csi {

void AppendGoJsonString(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  while (!s.empty()) {
    size_t width = 1;
    unsigned char b = s[0];
    if (b >= 0x80) {
      char32_t r = base::DecodeRune(s, &width);
      if (r == 0xFFFD && width == 1) {
        *out += "\\ufffd";
      } else if (r == 0x2028 || r == 0x2029) {
        *out += r == 0x2028 ? "\\u2028" : "\\u2029";
      } else {
        out->append(s.substr(0, width));
      }
    } else if (b == '"' || b == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(b));
    } else if (b == '\n' || b == '\r' || b == '\t' || b == '\b' || b == '\f') {
      out->push_back('\\');
      out->push_back(b == '\n' ? 'n' : b == '\r' ? 'r' : b == '\t' ? 't' : b == '\b' ? 'b' : 'f');
    } else if (b < 0x20 || b == '<' || b == '>' || b == '&') {
      *out += "\\u00";
      out->push_back(kHex[b >> 4]);
      out->push_back(kHex[b & 0xF]);
    } else {
      out->push_back(static_cast<char>(b));
    }
    s.remove_prefix(width);
  }
  out->push_back('"');
}

}  // namespace csi
