// Result<T>: a value or an Error, for expected failures that cross a layer
// boundary (exceptions are reserved for programming errors and startup).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace base {

// An expected failure: a human-readable message plus an optional numeric code
// whose meaning belongs to the layer that produced it (HTTP status for kube/,
// gRPC code for csi/). Code 0 means "no particular code".
struct Error {
  std::string message;
  int code = 0;

  Error() = default;
  explicit Error(std::string msg, int c = 0) : message(std::move(msg)), code(c) {}

  // Returns a copy whose message is "<context>: <message>", keeping the code.
  Error Wrap(std::string_view context) const {
    return Error(std::string(context) + ": " + message, code);
  }
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit on purpose
  Result(Error error) : v_(std::move(error)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// Status: a Result without a value.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT

  static Status Ok() { return Status(); }
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace base
