// JsonReader: a pull reader over JSON text, read once front to back without
// building a document. The caller asks for what it expects next (an object's
// members, an array's elements, a string, ...) and the reader checks the text
// as it goes; nothing is allocated but the strings the caller decodes into.
//
// It accepts exactly what the DOM parser of the codec (nlohmann) accepts, so
// the two codecs agree on every input: strict RFC 8259 syntax, strings of
// well-formed UTF-8 with \uXXXX escapes (surrogate pairs joined, lone
// surrogates rejected), numbers whose value is finite as a double, an optional
// leading UTF-8 byte order mark. Two differences: nesting deeper than
// kMaxDepth (Go's limit) is rejected, and so is a NUL byte after the value,
// which nlohmann takes for the end of the input (Go rejects it too). Syntax
// errors throw JsonSyntaxError naming the byte offset.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kube {

class JsonSyntaxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class JsonType { kNull, kBoolean, kNumber, kString, kArray, kObject };

// "null", "boolean", "number", "string", "array", "object": the words of
// today's type mismatch messages.
std::string_view JsonTypeName(JsonType type);

class JsonReader {
 public:
  static constexpr int kMaxDepth = 10000;

  // Where the reader stands; Seek returns to it, e.g. to skip a value whose
  // decoding failed.
  struct Position {
    size_t pos;
    int depth;
    bool first;
  };

  explicit JsonReader(std::string_view text);

  // The type of the next value (whitespace skipped); throws when no value starts there.
  JsonType Peek();

  // Consumes '{'. Then NextMember reads ',' and the next key and ':', or the
  // closing '}' (returns false). `key` stays valid until the next call.
  void BeginObject();
  bool NextMember(std::string_view& key);

  // Consumes '['. Then NextElement reads ',' or the closing ']' (returns false).
  void BeginArray();
  bool NextElement();

  void ReadString(std::string& out);
  bool ReadBoolean();
  void ReadNull();
  // The number's text, checked for syntax and range.
  std::string_view ReadNumber();

  // Skips the next value, checking it like any other; returns its text.
  std::string_view SkipValue();

  // Throws unless only whitespace follows.
  void ExpectEnd();

  // A reader over `value` (text SkipValue returned from this reader) whose
  // errors name offsets in this reader's text.
  JsonReader Slice(std::string_view value) const;

  Position Tell() const { return {pos_, depth_, first_}; }
  void Seek(Position position);
  size_t offset() const { return base_ + pos_; }

 private:
  JsonReader(std::string_view text, size_t base) : text_(text), base_(base) {}

  [[noreturn]] void Fail(std::string_view problem) const;
  [[noreturn]] void FailAt(size_t pos, std::string_view problem) const;
  bool AtEnd() const { return pos_ >= text_.size(); }
  // Skips whitespace; returns the next byte, or 0 at the end.
  char PeekByte();
  void Expect(char c);
  void Enter();
  // Past the ',' before the next member or element (true), or past `close`
  // (false); `expected` is the complaint about any other byte.
  bool NextItem(char close, std::string_view expected);
  void ReadKey(std::string_view& key);
  // Reads a string from its opening quote, appending the decoded text to
  // `out` when kDecode; returns whether it held an escape.
  template <bool kDecode>
  bool ScanString(std::string* out);
  void ScanLiteral(std::string_view literal);
  std::string_view ScanNumber();

  std::string_view text_;
  size_t base_ = 0;  // offset of text_ in the text errors refer to
  size_t pos_ = 0;
  int depth_ = 0;
  bool first_ = false;       // just after '{' or '[': no ',' before the next member or element
  std::string key_scratch_;  // a key that held escapes, decoded
};

}  // namespace kube
