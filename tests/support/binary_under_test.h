// A binary the pair tests run, upstream's or ours: its name in test names
// ("Upstream", "Ours") and where it is, found only when a test needs it (the
// error says why it cannot be found, and fails only the tests that use it).
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "base/result.h"

namespace testsupport {

struct BinaryUnderTest {
  std::string name;
  std::function<base::Result<std::string>()> binary;

  friend void PrintTo(const BinaryUnderTest& under_test, std::ostream* out) {
    *out << under_test.name;
  }
};

}  // namespace testsupport
