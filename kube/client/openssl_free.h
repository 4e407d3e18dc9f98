// OpenSslFree<F>: the deleter of a std::unique_ptr holding an OpenSSL object,
// which it frees with that object's own free function F, e.g.
//   std::unique_ptr<X509, OpenSslFree<X509_free>>.
#pragma once

namespace kube {

template <auto Free>
struct OpenSslFree {
  template <class T>
  void operator()(T* object) const {
    Free(object);
  }
};

}  // namespace kube
