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

}  // namespace
}  // namespace kube
