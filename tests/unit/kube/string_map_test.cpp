#include "kube/api/string_map.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kube {
namespace {

TEST(StringMap, IteratesInKeyOrderWhateverTheInsertOrder) {
  StringMap map;
  map["zone"] = "a";
  map["app"] = "db";
  map["mid"] = "m";
  std::vector<std::string> keys;
  for (const auto& [key, value] : map) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"app", "mid", "zone"}));
}

TEST(StringMap, FindContainsAndOverwrite) {
  StringMap map{{"a", "1"}, {"b", "2"}, {"a", "3"}};
  EXPECT_EQ(map.size(), 2u);
  ASSERT_NE(map.find("a"), map.end());
  EXPECT_EQ(map.find("a")->second, "3");
  EXPECT_TRUE(map.contains("b"));
  EXPECT_FALSE(map.contains("c"));
  EXPECT_EQ(map.find("c"), map.end());
  map["b"] = "4";
  EXPECT_EQ(map.find("b")->second, "4");
  EXPECT_EQ(map.size(), 2u);
}

TEST(StringMap, EraseReportsPresence) {
  StringMap map{{"a", "1"}, {"b", "2"}};
  EXPECT_TRUE(map.erase("a"));
  EXPECT_FALSE(map.erase("a"));
  EXPECT_EQ(map, (StringMap{{"b", "2"}}));
  EXPECT_TRUE(map.erase("b"));
  EXPECT_TRUE(map.empty());
}

// The point of the representation: an empty map, as most cached objects'
// labels and annotations are, costs one pointer and no heap.
TEST(StringMap, TakesOnePointer) { EXPECT_EQ(sizeof(StringMap), sizeof(void*)); }

// Long keys and values (beyond the strings' inline buffers) survive the moves
// that growing, inserting in front and erasing make; asan checks the
// block's bookkeeping.
TEST(StringMap, KeepsEntriesThroughGrowthInsertsAndErases) {
  auto key = [](int i) {
    return "example.com/a-key-too-long-for-the-inline-buffer-" + std::to_string(i);
  };
  StringMap map;
  for (int i = 9; i >= 0; --i)
    map[key(i)] = "value-that-is-also-longer-than-fifteen-" + std::to_string(i);
  ASSERT_EQ(map.size(), 10u);
  int i = 0;
  for (const auto& [k, v] : map) {
    EXPECT_EQ(k, key(i));
    EXPECT_EQ(v, "value-that-is-also-longer-than-fifteen-" + std::to_string(i));
    ++i;
  }
  EXPECT_TRUE(map.erase(key(0)));
  EXPECT_TRUE(map.erase(key(5)));
  EXPECT_TRUE(map.erase(key(9)));
  EXPECT_EQ(map.size(), 7u);
  EXPECT_EQ(map.begin()->first, key(1));
  EXPECT_FALSE(map.contains(key(5)));
  EXPECT_EQ(map.find(key(8))->second, "value-that-is-also-longer-than-fifteen-8");
}

TEST(StringMap, CopiesAndMovesAreValues) {
  StringMap original{{"a", "1"}, {"b", "2"}};
  StringMap copy = original;
  copy["c"] = "3";
  EXPECT_EQ(original.size(), 2u);
  EXPECT_NE(copy, original);
  StringMap assigned{{"x", "y"}};
  assigned = original;
  EXPECT_EQ(assigned, original);
  StringMap moved = std::move(copy);
  EXPECT_EQ(moved.size(), 3u);
  assigned = std::move(moved);
  EXPECT_EQ(assigned, (StringMap{{"a", "1"}, {"b", "2"}, {"c", "3"}}));
  StringMap empty;
  StringMap empty_copy = empty;
  EXPECT_TRUE(empty_copy.empty());
  EXPECT_EQ(empty_copy, StringMap());
  empty_copy.reserve(4);
  EXPECT_EQ(empty_copy, StringMap());
}

}  // namespace
}  // namespace kube
