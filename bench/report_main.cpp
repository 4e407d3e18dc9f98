// bench-report: prints the markdown report of the CSV files named on the
// command line (see report.h).
#include <cstdio>
#include <fstream>
#include <iostream>

#include "bench/report.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench-report RESULTS.csv...\n");
    return 2;
  }
  std::vector<bench::CsvRow> rows;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i]);
    if (!in) {
      std::fprintf(stderr, "bench-report: cannot read %s\n", argv[i]);
      return 1;
    }
    auto more = bench::ReadCsvRows(in);
    rows.insert(rows.end(), more.begin(), more.end());
  }
  std::cout << bench::RenderReport(rows);
  return 0;
}
