// The bodies of the writes ContentWriterOf sends, for either content kind:
// the guarded JSON Patches of an annotation or a finalizer, and the status
// merge patch with its resourceVersion precondition. The handler tests
// compare recorded calls with them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace snapshotter::testing {

// The JSON Pointer of annotation `key` ('/' escaped as "~1").
inline std::string AnnotationPath(std::string_view key) {
  std::string path = "/metadata/annotations/";
  for (char c : key) path += c == '/' ? std::string("~1") : std::string(1, c);
  return path;
}

// Annotation `key`: "yes" added to a content without annotations, added
// next to others, removed.
inline std::string AddFirstAnnotationBody(std::string_view key) {
  return R"([{"op":"test","path":"/metadata/annotations","value":null},)"
         R"({"op":"add","path":"/metadata/annotations","value":{")" +
         std::string(key) + R"(":"yes"}}])";
}
inline std::string AppendAnnotationBody(std::string_view key) {
  return R"([{"op":"add","path":")" + AnnotationPath(key) + R"(","value":"yes"}])";
}
inline std::string RemoveAnnotationBody(std::string_view key) {
  return R"([{"op":"test","path":")" + AnnotationPath(key) + R"(","value":"yes"},)" +
         R"({"op":"remove","path":")" + AnnotationPath(key) + R"("}])";
}

// `finalizer`, at `index`, removed.
inline std::string RemoveFinalizerBody(std::string_view finalizer, int index) {
  std::string path = "/metadata/finalizers/" + std::to_string(index);
  return R"([{"op":"test","path":")" + path + R"(","value":")" + std::string(finalizer) + R"("},)" +
         R"({"op":"remove","path":")" + path + R"("}])";
}

// A status merge patch guarded by resourceVersion `rv`.
inline std::string StatusBody(const std::string& rv, const nlohmann::json& status) {
  return nlohmann::json{{"metadata", {{"resourceVersion", rv}}}, {"status", status}}.dump();
}

}  // namespace snapshotter::testing
