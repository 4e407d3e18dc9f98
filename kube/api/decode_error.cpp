#include "kube/api/decode_error.h"

namespace kube {

DecodeError::DecodeError(std::string problem)
    : std::runtime_error("decode error"), problem_(std::move(problem)) {
  Rebuild();
}

void DecodeError::AddParent(std::string_view segment) {
  if (path_.empty() || path_.front() == '[') {
    path_.insert(0, segment);
  } else {
    path_.insert(0, std::string(segment) + ".");
  }
  Rebuild();
}

void DecodeError::Rebuild() { message_ = path_.empty() ? problem_ : path_ + ": " + problem_; }

}  // namespace kube
