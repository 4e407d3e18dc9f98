#include "base/vmodule.h"

#include "base/strconv.h"

namespace base {
namespace {

// Reads one possibly escaped class character from *p into *c. Fails where Go
// reports ErrBadPattern: unescaped '-' or ']', or nothing left after it.
bool ClassChar(std::string_view* p, char* c) {
  if (p->empty() || (*p)[0] == '-' || (*p)[0] == ']') return false;
  if ((*p)[0] == '\\') {
    p->remove_prefix(1);
    if (p->empty()) return false;
  }
  *c = (*p)[0];
  p->remove_prefix(1);
  return !p->empty();
}

// Matches `[...]` at the start of *p (just past the '[') against `c`.
// Returns false for a malformed class; otherwise sets *matched and consumes it.
bool MatchClass(std::string_view* p, char c, bool* matched) {
  bool negated = !p->empty() && (*p)[0] == '^';
  if (negated) p->remove_prefix(1);
  bool hit = false;
  for (int ranges = 0;; ++ranges) {
    if (!p->empty() && (*p)[0] == ']' && ranges > 0) {
      p->remove_prefix(1);
      break;
    }
    char lo, hi;
    if (!ClassChar(p, &lo)) return false;
    hi = lo;
    if ((*p)[0] == '-') {
      p->remove_prefix(1);
      if (!ClassChar(p, &hi)) return false;
    }
    hit = hit || (lo <= c && c <= hi);
  }
  *matched = hit != negated;
  return true;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view name) {
  while (!pattern.empty()) {
    char p = pattern[0];
    if (p == '*') {
      while (!pattern.empty() && pattern[0] == '*') pattern.remove_prefix(1);
      // A star spans any run of non-separator characters.
      for (size_t i = 0;; ++i) {
        if (GlobMatch(pattern, name.substr(i))) return true;
        if (i == name.size() || name[i] == '/') return false;
      }
    }
    if (name.empty()) return false;
    if (p == '?') {
      if (name[0] == '/') return false;
      pattern.remove_prefix(1);
    } else if (p == '[') {
      pattern.remove_prefix(1);
      bool matched;
      if (!MatchClass(&pattern, name[0], &matched) || !matched) return false;
    } else {
      if (p == '\\') {
        pattern.remove_prefix(1);
        if (pattern.empty()) return false;
      }
      if (pattern[0] != name[0]) return false;
      pattern.remove_prefix(1);
    }
    name.remove_prefix(1);
  }
  return name.empty();
}

Status ParseVModule(std::string_view text, std::vector<VModuleItem>* items) {
  while (true) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    if (!item.empty()) {
      size_t eq = item.find('=');
      if (eq == 0 || eq == std::string_view::npos || eq + 1 == item.size() ||
          item.find('=', eq + 1) != std::string_view::npos) {
        return Error(GoQuote(item) + " does not have the pattern=N format");
      }
      Result<uint64_t> level = ParseUint(item.substr(eq + 1), 10, 31);
      if (!level.ok()) {
        return Error("parsing verbosity in " + GoQuote(item) + ": " + level.error().message);
      }
      items->push_back({std::string(item.substr(0, eq)), static_cast<int>(*level)});
    }
    if (comma == std::string_view::npos) return Status::Ok();
    text.remove_prefix(comma + 1);
  }
}

std::string FormatVModule(const std::vector<VModuleItem>& items) {
  std::string out;
  for (const VModuleItem& item : items) {
    if (!out.empty()) out += ",";
    out += item.pattern + "=" + std::to_string(item.level);
  }
  return out;
}

int VModuleLevel(const std::vector<VModuleItem>& items, std::string_view path) {
  std::string_view stem = path.substr(path.find_last_of('/') + 1);
  stem = stem.substr(0, stem.find_last_of('.'));
  for (const VModuleItem& item : items) {
    if (item.level > 0 && GlobMatch(item.pattern, stem)) return item.level;
  }
  return 0;
}

}  // namespace base
