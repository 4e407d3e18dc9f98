#include "metrics/process_collector.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace metrics {
namespace {

// The value of the unlabelled sample `name` in `text`, or -1.
double ValueOf(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size() + 1));
  }
  return -1;
}

TEST(ProcessCollectorTest, ReportsPlausibleValuesForThisProcess) {
  Registry registry;
  RegisterProcessCollector(registry);
  std::string text = registry.Expose();
  EXPECT_GT(ValueOf(text, "process_resident_memory_bytes"), 0) << text;
  EXPECT_GT(ValueOf(text, "process_virtual_memory_bytes"),
            ValueOf(text, "process_resident_memory_bytes"));
  EXPECT_GE(ValueOf(text, "process_open_fds"), 3);
  EXPECT_GT(ValueOf(text, "process_max_fds"), 0);
  EXPECT_GE(ValueOf(text, "process_cpu_seconds_total"), 0);
  double start = ValueOf(text, "process_start_time_seconds");
  EXPECT_GT(start, 1.6e9);
  EXPECT_LT(start, static_cast<double>(time(nullptr)) + 1);
  EXPECT_NE(text.find("# HELP process_start_time_seconds [ALPHA] "), std::string::npos);
  EXPECT_NE(text.find("# TYPE process_cpu_seconds_total counter"), std::string::npos);
}

}  // namespace
}  // namespace metrics
