// Integration tests talk to real peers; their logs go to stderr at -v=2 so a
// failure shows what the client saw.
#include <gmock/gmock.h>

#include "base/log.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleMock(&argc, argv);
  base::SetLogConfig({.verbosity = 2});
  return RUN_ALL_TESTS();
}
