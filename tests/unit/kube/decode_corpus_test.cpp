// The committed fuzz corpus (tests/fuzz/corpus/<target>/) replayed through the
// fuzz targets' oracle with the project's compiler: every sample object,
// list, watch line and Status of the codec tests decodes the same through the
// stream codec and the DOM codec.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/decode_cross_check.h"
#include "tests/fuzz/protobuf_check.h"
#include "tests/support/source_dir.h"

namespace {

std::vector<std::filesystem::path> CorpusOf(const std::string& target) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(
           testsupport::SourcePath("tests/fuzz/corpus/" + target))) {
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string Contents(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void Replay(const std::string& target, const std::function<std::string(std::string_view)>& check,
            size_t at_least) {
  auto files = CorpusOf(target);
  ASSERT_GE(files.size(), at_least) << "corpus of " << target << " missing";
  for (const auto& file : files) {
    EXPECT_EQ(check(Contents(file)), "") << file;
  }
}

TEST(DecodeCorpus, ObjectsDecodeAlikeThroughBothCodecs) {
  Replay("object", fuzz::CrossCheckObject, 100);
}

TEST(DecodeCorpus, ListsDecodeAlikeThroughBothCodecs) { Replay("list", fuzz::CrossCheckList, 5); }

TEST(DecodeCorpus, WatchEventsDecodeAlikeThroughBothDecoders) {
  Replay("watch_event", fuzz::CrossCheckWatchEvent, 5);
}

TEST(DecodeCorpus, StatusesDecodeAlikeThroughBothCodecs) {
  Replay("status", fuzz::CrossCheckStatus, 3);
}

TEST(DecodeCorpus, ProtobufObjectsAndWatchStreamsDecodeAlikeInAnyChunking) {
  Replay("protobuf", fuzz::CheckProtobuf, 5);
}

// Inputs both codecs reject are agreement, not a finding.
TEST(DecodeCorpus, OracleAcceptsAgreedFailures) {
  EXPECT_EQ(fuzz::CrossCheckObject("{\"metadata\": 5}"), "");
  EXPECT_EQ(fuzz::CrossCheckObject("not json"), "");
  EXPECT_EQ(fuzz::CrossCheckWatchEvent("{\"type\":\"NOPE\",\"object\":{}}"), "");
}

}  // namespace
