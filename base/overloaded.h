// Overloaded: an overload set of lambdas for std::visit over a std::variant,
// so each alternative gets its own branch:
//   std::visit(base::Overloaded{[](const A&) {...}, [](const B&) {...}}, v);
#pragma once

namespace base {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace base
