// HeapOptional<T>: an optional T whose value lives on the heap, for members
// that are empty in nearly every object a cache holds (a VolumeAttachment's
// attach and detach errors): empty, it costs one pointer instead of
// sizeof(std::optional<T>). It is a value like std::optional and has the
// subset of its interface callers use: copies copy the T, == compares
// contents (two empty ones are equal), and assigning a T sets it. The codecs
// (field.h) treat it as an optional: an absent or null member decodes empty,
// an empty one is omitted (written as null under Emit::kAlways).
#pragma once

#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace kube {

template <class T>
class HeapOptional;

// What a HeapOptional<T> compares with besides itself and std::nullopt, and
// is built from when it makes a T.
template <class U, class T>
concept HeapOptionalOperand = !std::is_same_v<std::remove_cvref_t<U>, HeapOptional<T>> &&
                              !std::is_same_v<std::remove_cvref_t<U>, std::nullopt_t>;
template <class U, class T>
concept HeapOptionalSource = HeapOptionalOperand<U, T> && std::is_constructible_v<T, U&&>;

template <class T>
class HeapOptional {
 public:
  HeapOptional() = default;
  HeapOptional(std::nullopt_t) {}  // NOLINT: implicit as in std::optional
  // From anything a T is made of, e.g. a string literal for a HeapOptional<std::string>.
  template <HeapOptionalSource<T> U = T>
  HeapOptional(U&& value)  // NOLINT: implicit as in std::optional
      : value_(std::make_unique<T>(std::forward<U>(value))) {}

  HeapOptional(const HeapOptional& other)
      : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  HeapOptional(HeapOptional&&) noexcept = default;
  HeapOptional& operator=(const HeapOptional& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  HeapOptional& operator=(HeapOptional&&) noexcept = default;
  HeapOptional& operator=(std::nullopt_t) {
    reset();
    return *this;
  }

  // Replaces any value with a T made from `args`.
  template <class... Args>
  T& emplace(Args&&... args) {
    value_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *value_;
  }
  void reset() { value_.reset(); }

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }

  // Only when has_value().
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }

  friend bool operator==(const HeapOptional& a, const HeapOptional& b) {
    if (!a.value_ || !b.value_) return a.value_ == b.value_;
    return *a.value_ == *b.value_;
  }
  template <HeapOptionalOperand<T> U>
  friend bool operator==(const HeapOptional& a, const U& b) {
    return a.value_ && *a.value_ == b;
  }
  friend bool operator==(const HeapOptional& a, std::nullopt_t) { return !a.value_; }
  // As between two optionals: both empty, or both set to equal values.
  friend bool operator==(const HeapOptional& a, const std::optional<T>& b) {
    if (!a.value_ || !b) return !a.value_ && !b;
    return *a.value_ == *b;
  }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace kube
