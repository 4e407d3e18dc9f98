#include "component/exit_codes.h"

#include "base/log.h"

namespace component {

int Fail(std::string_view message) {
  LOG_ERROR(message);
  return kExitFailure;
}

int Fail(std::string_view message, const base::Error& error) {
  LOG_ERROR(message).With("err", error.message);
  return kExitFailure;
}

int FailFatally(std::string_view message) {
  // Built directly: the logging macros stop at error, as nothing else is fatal.
  base::LogLine(base::Severity::kFatal, __FILE__, __LINE__, message);
  return kExitFatal;
}

int StoppedDuringStartup(std::string_view step) {
  LOG_INFO("Shutdown requested during startup, exiting").With("step", step);
  return kExitSuccess;
}

}  // namespace component
