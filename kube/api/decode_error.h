// DecodeError: how a codec reports a value it cannot accept, thrown while
// decoding and caught at the codec's Result boundary (codec.h), never beyond.
// The field path grows as the error unwinds through enclosing fields, so the
// final message reads "spec.source.inlineVolumeSpec.csi.driver: <problem>".
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace kube {

class DecodeError : public std::runtime_error {
 public:
  explicit DecodeError(std::string problem);

  // Prefixes the path with an object key ("spec" + "attacher") or an array
  // index segment ("items" + "[3]").
  void AddParent(std::string_view segment);
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  void Rebuild();

  std::string path_;
  std::string problem_;
  std::string message_;  // "<path>: <problem>", or the bare problem at the top
};

// Runs `decode`; a DecodeError escaping it gets `segment` as parent.
template <class Decode>
void WithParent(std::string_view segment, Decode&& decode) {
  try {
    decode();
  } catch (DecodeError& e) {
    e.AddParent(segment);
    throw;
  }
}

}  // namespace kube
