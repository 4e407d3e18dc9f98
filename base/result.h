// Result<T>: a value or an Error, for expected failures that cross a layer
// boundary (exceptions are reserved for programming errors and startup).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace base {

// Where an Error's code comes from, so that an HTTP 404 can never be taken
// for gRPC NOT_FOUND (5) or a transport failure for either.
enum class ErrorDomain {
  kNone,       // no code, or one whose meaning the function returning it documents
  kHttp,       // code: the HTTP status of a server's answer (the Kubernetes API)
  kGrpc,       // code: the gRPC status code (1..16) of a failed call (a CSI driver)
  kTransport,  // no answer at all (connect, TLS, timeout, broken stream); code 0
};

// An expected failure: a human-readable message plus where it came from.
// Build it with the named constructor of its domain; Error(message) is a
// failure without a code.
struct Error {
  std::string message;
  ErrorDomain domain = ErrorDomain::kNone;
  int code = 0;

  Error() = default;
  explicit Error(std::string msg) : message(std::move(msg)) {}

  static Error Http(int status, std::string msg) {
    return Error(ErrorDomain::kHttp, status, std::move(msg));
  }
  static Error Grpc(int grpc_code, std::string msg) {
    return Error(ErrorDomain::kGrpc, grpc_code, std::move(msg));
  }
  // `errno_code`: the errno behind it, when one is (0: none).
  static Error Transport(std::string msg, int errno_code = 0) {
    return Error(ErrorDomain::kTransport, errno_code, std::move(msg));
  }
  // A code of the returning function's own (an exit status, a parse error kind).
  static Error WithCode(int local_code, std::string msg) {
    return Error(ErrorDomain::kNone, local_code, std::move(msg));
  }

  bool IsHttp(int status) const { return domain == ErrorDomain::kHttp && code == status; }
  bool IsGrpc() const { return domain == ErrorDomain::kGrpc; }
  bool IsTransport() const { return domain == ErrorDomain::kTransport; }

  // Returns a copy whose message is "<context>: <message>", keeping domain and code.
  Error Wrap(std::string_view context) const {
    return Error(domain, code, std::string(context) + ": " + message);
  }

 private:
  Error(ErrorDomain d, int c, std::string msg) : message(std::move(msg)), domain(d), code(c) {}
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
