// Table rows for functions that return a base::Result, and their check: the
// error text when the row names one, else the value.
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "base/result.h"

namespace migration::testing {

// One row: `input` gives `want`, or the error `want_error` when it is not
// empty.
template <class Input, class Value>
struct ResultCase {
  std::string name;
  Input input;
  Value want;
  std::string want_error;
};

// A failing row prints as its name.
template <class Input, class Value>
void PrintTo(const ResultCase<Input, Value>& c, std::ostream* os) {
  *os << c.name;
}

template <class T>
void ExpectValueOrError(const base::Result<T>& got, const T& want, const std::string& want_error) {
  if (!want_error.empty()) {
    ASSERT_FALSE(got.ok()) << "wanted the error: " << want_error;
    EXPECT_EQ(got.error().message, want_error);
    return;
  }
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(*got, want);
}

}  // namespace migration::testing
