// KindFacts: what a kind states about itself, next to its struct, so that
// path building (resource.h), the codec (codec.h) and the typed client find
// every kind - built-in or custom resource - the same way, with no central
// list. A kind declares `static constexpr KindFacts kFacts{...}`.
#pragma once

#include <concepts>
#include <string_view>

namespace kube {

enum class Scope { kCluster, kNamespaced };

struct KindFacts {
  std::string_view api_version;  // "<group>/<version>", or "<version>" for the core group
  std::string_view kind;
  std::string_view plural = {};  // the REST resource; empty for a message kind such as Status
  Scope scope = Scope::kCluster;
  bool status_subresource = false;  // status is written through .../<name>/status only

  constexpr std::string_view group() const {
    auto slash = api_version.find('/');
    return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
  }
  constexpr std::string_view version() const {
    return api_version.substr(api_version.find('/') + 1);  // npos + 1 == 0: the whole string
  }
};

// A type carrying apiVersion and kind when encoded at the top level.
template <class T>
concept HasKindFacts = requires {
  { T::kFacts } -> std::convertible_to<KindFacts>;
};

// A kind served as a REST resource.
template <class T>
concept ResourceKind = HasKindFacts<T> && !T::kFacts.plural.empty();

}  // namespace kube
