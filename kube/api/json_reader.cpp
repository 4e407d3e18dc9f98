#include "kube/api/json_reader.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "base/strconv.h"

namespace kube {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Whether an integer literal fits int64 (negative) or uint64; the DOM parser
// keeps those exact and parses any other number as a double.
bool FitsInteger(std::string_view text) {
  const char* end = text.data() + text.size();
  if (text.front() == '-') {
    int64_t value;
    return std::from_chars(text.data(), end, value).ec == std::errc();
  }
  uint64_t value;
  return std::from_chars(text.data(), end, value).ec == std::errc();
}

}  // namespace

std::string_view JsonTypeName(JsonType type) {
  switch (type) {
    case JsonType::kNull:
      return "null";
    case JsonType::kBoolean:
      return "boolean";
    case JsonType::kNumber:
      return "number";
    case JsonType::kString:
      return "string";
    case JsonType::kArray:
      return "array";
    case JsonType::kObject:
      return "object";
  }
  return "unknown";
}

JsonReader::JsonReader(std::string_view text) : text_(text) {
  if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
}

JsonReader JsonReader::Slice(std::string_view value) const {
  return JsonReader(value, base_ + static_cast<size_t>(value.data() - text_.data()));
}

void JsonReader::Seek(Position position) {
  pos_ = position.pos;
  depth_ = position.depth;
  first_ = position.first;
}

void JsonReader::Fail(std::string_view problem) const { FailAt(pos_, problem); }

void JsonReader::FailAt(size_t pos, std::string_view problem) const {
  throw JsonSyntaxError(fmt::format("syntax error at byte {}: {}", base_ + pos, problem));
}

char JsonReader::PeekByte() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c;
    ++pos_;
  }
  return 0;
}

void JsonReader::Expect(char c) {
  if (PeekByte() != c) {
    if (AtEnd()) Fail("unexpected end of input");
    Fail(fmt::format("expected '{}'", c));
  }
  ++pos_;
}

JsonType JsonReader::Peek() {
  char c = PeekByte();
  switch (c) {
    case '{':
      return JsonType::kObject;
    case '[':
      return JsonType::kArray;
    case '"':
      return JsonType::kString;
    case 't':
    case 'f':
      return JsonType::kBoolean;
    case 'n':
      return JsonType::kNull;
    default:
      if (c == '-' || IsDigit(c)) return JsonType::kNumber;
      if (AtEnd()) Fail("unexpected end of input");
      Fail("expected a value");
  }
}

void JsonReader::Enter() {
  if (++depth_ > kMaxDepth) Fail(fmt::format("nesting deeper than {}", kMaxDepth));
  ++pos_;
  first_ = true;
}

void JsonReader::BeginObject() {
  if (PeekByte() != '{') Expect('{');
  Enter();
}

bool JsonReader::NextMember(std::string_view& key) {
  if (!NextItem('}', "expected ',' or '}'")) return false;
  ReadKey(key);
  Expect(':');
  return true;
}

void JsonReader::BeginArray() {
  if (PeekByte() != '[') Expect('[');
  Enter();
}

bool JsonReader::NextElement() { return NextItem(']', "expected ',' or ']'"); }

bool JsonReader::NextItem(char close, std::string_view expected) {
  char c = PeekByte();
  if (c == close) {
    ++pos_;
    --depth_;
    first_ = false;
    return false;
  }
  if (!first_) {
    if (c != ',') {
      if (AtEnd()) Fail("unexpected end of input");
      Fail(expected);
    }
    ++pos_;
  }
  first_ = false;
  return true;
}

void JsonReader::ReadKey(std::string_view& key) {
  if (PeekByte() != '"') Expect('"');
  size_t start = pos_;
  if (!ScanString<false>(nullptr)) {
    key = text_.substr(start + 1, pos_ - start - 2);
    return;
  }
  pos_ = start;  // rare: decode the escapes
  key_scratch_.clear();
  ScanString<true>(&key_scratch_);
  key = key_scratch_;
}

void JsonReader::ReadString(std::string& out) {
  if (PeekByte() != '"') Expect('"');
  out.clear();
  ScanString<true>(&out);
}

template <bool kDecode>
bool JsonReader::ScanString(std::string* out) {
  const auto* data = reinterpret_cast<const unsigned char*>(text_.data());
  const size_t size = text_.size();
  size_t run = ++pos_;  // the bytes since the last escape, copied in one go
  bool escaped = false;
  for (size_t i = pos_;;) {
    if (i >= size) FailAt(i, "unterminated string");
    unsigned char c = data[i];
    if (c == '"') {
      if constexpr (kDecode) out->append(text_.data() + run, i - run);
      pos_ = i + 1;
      return escaped;
    }
    if (c < 0x20) FailAt(i, "control character in string");
    if (c < 0x80) {
      if (c != '\\') {
        ++i;
        continue;
      }
      escaped = true;
      if constexpr (kDecode) out->append(text_.data() + run, i - run);
      if (i + 1 >= size) FailAt(i, "unterminated string");
      char kind = static_cast<char>(data[i + 1]);
      i += 2;
      char simple = 0;
      switch (kind) {
        case '"':
        case '\\':
        case '/':
          simple = kind;
          break;
        case 'b':
          simple = '\b';
          break;
        case 'f':
          simple = '\f';
          break;
        case 'n':
          simple = '\n';
          break;
        case 'r':
          simple = '\r';
          break;
        case 't':
          simple = '\t';
          break;
        case 'u':
          break;
        default:
          FailAt(i - 1, "invalid escape in string");
      }
      if (simple != 0) {
        if constexpr (kDecode) *out += simple;
        run = i;
        continue;
      }
      auto read_hex4 = [&](size_t at) {
        uint32_t value = 0;
        for (size_t k = 0; k < 4; ++k) {
          int digit = at + k < size ? HexDigitValue(text_[at + k]) : -1;
          if (digit < 0) FailAt(at + k, "invalid \\u escape in string");
          value = value * 16 + static_cast<uint32_t>(digit);
        }
        return value;
      };
      uint32_t code_point = read_hex4(i);
      i += 4;
      if (code_point >= 0xDC00 && code_point <= 0xDFFF) {
        FailAt(i - 6, "lone low surrogate in string");
      }
      if (code_point >= 0xD800 && code_point <= 0xDBFF) {
        if (i + 1 >= size || data[i] != '\\' || data[i + 1] != 'u') {
          FailAt(i, "high surrogate not followed by a low surrogate");
        }
        uint32_t low = read_hex4(i + 2);
        if (low < 0xDC00 || low > 0xDFFF) FailAt(i, "high surrogate not followed by a low one");
        code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
        i += 6;
      }
      if constexpr (kDecode) base::AppendUtf8(out, code_point);
      run = i;
      continue;
    }
    size_t length = 1;
    base::DecodeRune(text_.substr(i), &length);
    if (length == 1) FailAt(i, "invalid UTF-8 in string");  // a byte >= 0x80 starts no rune
    i += length;
  }
}

bool JsonReader::ReadBoolean() {
  if (PeekByte() == 't') {
    ScanLiteral("true");
    return true;
  }
  ScanLiteral("false");
  return false;
}

void JsonReader::ReadNull() {
  PeekByte();
  ScanLiteral("null");
}

void JsonReader::ScanLiteral(std::string_view literal) {
  if (text_.substr(pos_, literal.size()) != literal) Fail("invalid literal");
  pos_ += literal.size();
}

std::string_view JsonReader::ReadNumber() {
  PeekByte();
  return ScanNumber();
}

std::string_view JsonReader::ScanNumber() {
  const size_t start = pos_;
  size_t i = pos_;
  auto digit_at = [&](size_t at) { return at < text_.size() && IsDigit(text_[at]); };
  auto digits = [&] {
    if (!digit_at(i)) FailAt(i, "invalid number");
    while (digit_at(i)) ++i;
  };
  if (i < text_.size() && text_[i] == '-') ++i;
  if (digit_at(i) && text_[i] == '0') {
    ++i;
  } else {
    digits();
  }
  bool integral = true;
  if (i < text_.size() && text_[i] == '.') {
    integral = false;
    ++i;
    digits();
  }
  if (i < text_.size() && (text_[i] == 'e' || text_[i] == 'E')) {
    integral = false;
    ++i;
    if (i < text_.size() && (text_[i] == '+' || text_[i] == '-')) ++i;
    digits();
  }
  pos_ = i;
  std::string_view number = text_.substr(start, i - start);
  if (integral && (number.size() <= 18 || FitsInteger(number))) return number;
  // Any other number is a double in the DOM, which refuses infinities.
  if (!std::isfinite(std::strtod(std::string(number).c_str(), nullptr))) {
    FailAt(start, "number out of range of a double");
  }
  return number;
}

std::string_view JsonReader::SkipValue() {
  PeekByte();
  const size_t start = pos_;
  // Iterative, so that deep nesting costs no stack: one bit per open
  // container says whether it is an array (a word for the usual shallow
  // values, a vector beyond).
  uint64_t shallow_arrays = 0;
  std::vector<bool> deep_arrays;
  auto set_array = [&](int level, bool is_array) {
    if (level < 64) {
      shallow_arrays = (shallow_arrays & ~(uint64_t{1} << level)) | (uint64_t{is_array} << level);
    } else {
      deep_arrays.resize(static_cast<size_t>(level - 63));
      deep_arrays[static_cast<size_t>(level - 64)] = is_array;
    }
  };
  auto is_array = [&](int level) {
    return level < 64 ? ((shallow_arrays >> level) & 1) != 0
                      : static_cast<bool>(deep_arrays[static_cast<size_t>(level - 64)]);
  };
  int open = 0;
  do {
    switch (Peek()) {
      case JsonType::kObject:
        BeginObject();
        set_array(++open, false);
        break;
      case JsonType::kArray:
        BeginArray();
        set_array(++open, true);
        break;
      case JsonType::kString:
        ScanString<false>(nullptr);
        break;
      case JsonType::kNumber:
        ScanNumber();
        break;
      case JsonType::kBoolean:
        ReadBoolean();
        break;
      case JsonType::kNull:
        ReadNull();
        break;
    }
    // Close containers until another value is due.
    while (open > 0) {
      std::string_view key;
      bool more = is_array(open) ? NextElement() : NextMember(key);
      if (more) break;
      --open;
    }
  } while (open > 0);
  return text_.substr(start, pos_ - start);
}

void JsonReader::ExpectEnd() {
  if (PeekByte() != 0 || !AtEnd()) Fail("unexpected data after the value");
}

}  // namespace kube
