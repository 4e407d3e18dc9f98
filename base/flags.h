// Command line parsing compatible with Go's `flag` package (docs/attacher.md §1.2),
// written by hand because no packaged C++ library parses the Go way.
//
// `-name` and `--name` are the same; non-bool flags take `-name=v` or
// `-name v`; bool flags take `-name` or `-name=false`; parsing stops at `--`
// or at the first non-flag argument; a repeated flag is Set again (scalars:
// last wins). Errors print Go's message plus the usage text to the output
// stream and come back as an Error whose `code` is the process exit code: 2
// for mistakes, 0 for `-h`/`-help` (unless a flag of that name exists). The
// library never exits. Deliberate difference (docs/attacher.md §7): positional
// arguments are an error unless ParseOptions::allow_positional is set.
#pragma once

#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace base {

inline constexpr int kExitHelp = 0;
inline constexpr int kExitUsageError = 2;

// A flag's value, like Go's flag.Value; implementations point at the storage.
class FlagValue {
 public:
  virtual ~FlagValue() = default;
  // Parses and stores `text`. The message follows `invalid value "x" for flag -name: `.
  virtual Status Set(std::string_view text) = 0;
  virtual std::string String() const = 0;
  // A bool flag needs no argument: `-x` means Set("true").
  virtual bool IsBoolFlag() const { return false; }
  // The word usage prints after the name (`-timeout duration`); empty for none.
  virtual std::string TypeName() const { return "value"; }
  // String() of this type's zero value: usage omits a default equal to it.
  virtual std::string ZeroString() const { return ""; }
  // Go quotes the default of string flags only.
  virtual bool QuoteDefault() const { return false; }
};

struct ParseOptions {
  // Go leaves positional arguments to the program (and upstream ignores
  // them, silently dropping every flag after `-bool-flag false`).
  bool allow_positional = false;
};

class FlagSet {
 public:
  // `program` is named in "Usage of <program>:"; messages go to `output`.
  explicit FlagSet(std::string program, std::ostream* output = &std::cerr);
  // A view of `parent` that registers each flag there as `prefix` + name and
  // answers IsSet for those names: one component's flags registered by its
  // own code into a process's set under a prefix (csi-sidecars'
  // "--attacher-timeout"). Values it owns live in the parent, which must
  // outlive it; it cannot Parse.
  FlagSet(FlagSet& parent, std::string prefix);
  ~FlagSet();
  FlagSet(const FlagSet&) = delete;
  FlagSet& operator=(const FlagSet&) = delete;

  // Each registration writes the default into *target at once and parsed
  // values later; targets must outlive the FlagSet. A duplicate name, or one
  // starting with '-' or containing '=', throws std::logic_error (a
  // programming error; Go panics).
  void Bool(std::string name, bool* target, bool default_value, std::string usage);
  void String(std::string name, std::string* target, std::string default_value, std::string usage);
  // Go's int and int64 (both 64-bit); base-0 syntax (0x10, 0o17, 017, 1_000).
  void Int(std::string name, int64_t* target, int64_t default_value, std::string usage);
  // Go's uint and uint64; like Int but no sign.
  void Uint(std::string name, uint64_t* target, uint64_t default_value, std::string usage);
  void Float64(std::string name, double* target, double default_value, std::string usage);
  void Duration(std::string name, std::chrono::nanoseconds* target,
                std::chrono::nanoseconds default_value, std::string usage);
  // A custom value (must outlive the FlagSet); its String() now is the default.
  void Var(std::string name, FlagValue* value, std::string usage);
  // The same, with the FlagSet owning the value.
  void Var(std::string name, std::unique_ptr<FlagValue> value, std::string usage);

  // `args` excludes the program name.
  Status Parse(const std::vector<std::string>& args, ParseOptions options = {});
  Status Parse(int argc, const char* const* argv, ParseOptions options = {});

  // Whether the flag appeared on the command line (Go's FlagSet.Visit).
  bool IsSet(std::string_view name) const;
  // The name the command line gives flag `name`: with a view's prefix.
  std::string FullName(std::string_view name) const { return prefix_ + std::string(name); }
  // Arguments left after parsing (only non-empty with allow_positional).
  const std::vector<std::string>& Args() const { return args_; }
  // "Usage of <program>:\n" and one entry per flag, sorted by name.
  std::string Usage() const;
  const std::string& program() const { return program_; }

 private:
  struct Flag {
    FlagValue* value;
    std::string usage;
    std::string default_text;
    bool set = false;
  };

  void Register(std::string name, FlagValue* value, std::string usage);
  // Prints `message` and the usage; returns the usage error.
  Error Fail(const std::string& message);

  std::string program_;
  std::ostream* output_;
  FlagSet* parent_ = nullptr;  // set: a prefixed view (see its constructor)
  std::string prefix_;
  std::map<std::string, Flag, std::less<>> flags_;
  std::vector<std::unique_ptr<FlagValue>> owned_values_;
  std::vector<std::string> args_;
};

}  // namespace base
