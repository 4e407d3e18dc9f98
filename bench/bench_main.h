// BenchMain: what attacher-bench and snapshot-bench do: parse the options,
// make the stack (which fills in its defaults), run the cell (runner.h).
// Returns the exit code: 0, 1 when the cell failed, 2 on bad flags.
#pragma once

#include <functional>
#include <memory>

#include "base/result.h"
#include "bench/options.h"
#include "bench/stack.h"

namespace bench {

using StackFactory = std::function<base::Result<std::unique_ptr<Stack>>(BenchOptions&)>;

int BenchMain(int argc, char** argv, const char* program, const StackFactory& make_stack);

}  // namespace bench
