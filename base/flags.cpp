#include "base/flags.h"

#include <stdexcept>

#include "base/duration.h"
#include "base/strconv.h"

namespace base {
namespace {

// Go's built-in flag types report their own parse failures only as these two
// words, whatever strconv said.
Error BuiltinParseError(const Error& error) {
  return Error(error.code == kNumErrorRange ? "value out of range" : "parse error");
}

// How one built-in type parses, prints and presents itself in usage.
template <typename T>
struct ScalarKind {
  const char* type_name;
  const char* zero_text;
  bool is_bool;
  bool quote_default;
  Result<T> (*parse)(std::string_view);
  std::string (*format)(const T&);
};

template <typename T>
class ScalarValue final : public FlagValue {
 public:
  ScalarValue(T* target, const ScalarKind<T>& kind) : target_(target), kind_(kind) {}

  Status Set(std::string_view text) override {
    Result<T> parsed = kind_.parse(text);
    if (!parsed.ok()) return BuiltinParseError(parsed.error());
    *target_ = std::move(parsed).value();
    return Status::Ok();
  }
  std::string String() const override { return kind_.format(*target_); }
  bool IsBoolFlag() const override { return kind_.is_bool; }
  std::string TypeName() const override { return kind_.type_name; }
  std::string ZeroString() const override { return kind_.zero_text; }
  bool QuoteDefault() const override { return kind_.quote_default; }

 private:
  T* target_;
  const ScalarKind<T>& kind_;
};

const ScalarKind<bool> kBoolKind{"",
                                 "false",
                                 true,
                                 false,
                                 [](std::string_view s) { return ParseBool(s); },
                                 [](const bool& v) { return std::string(v ? "true" : "false"); }};

const ScalarKind<std::string> kStringKind{
    "string",
    "",
    false,
    true,
    [](std::string_view s) { return Result<std::string>(std::string(s)); },
    [](const std::string& v) { return v; }};

const ScalarKind<int64_t> kIntKind{"int",
                                   "0",
                                   false,
                                   false,
                                   [](std::string_view s) { return ParseInt(s, 0, 64); },
                                   [](const int64_t& v) { return std::to_string(v); }};

const ScalarKind<uint64_t> kUintKind{"uint",
                                     "0",
                                     false,
                                     false,
                                     [](std::string_view s) { return ParseUint(s, 0, 64); },
                                     [](const uint64_t& v) { return std::to_string(v); }};

const ScalarKind<double> kFloatKind{"float",
                                    "0",
                                    false,
                                    false,
                                    [](std::string_view s) { return ParseFloat(s); },
                                    [](const double& v) { return FormatFloat(v, 'g'); }};

const ScalarKind<std::chrono::nanoseconds> kDurationKind{
    "duration",
    "0s",
    false,
    false,
    [](std::string_view s) { return ParseDuration(s); },
    [](const std::chrono::nanoseconds& v) { return FormatDuration(v); }};

// Go's UnquoteUsage: a `back-quoted` word in the usage names the argument in
// place of the type, and loses its quotes.
void UnquoteUsage(const FlagValue& value, std::string* name, std::string* usage) {
  size_t open = usage->find('`');
  if (open != std::string::npos) {
    size_t close = usage->find('`', open + 1);
    if (close != std::string::npos) {
      *name = usage->substr(open + 1, close - open - 1);
      usage->erase(close, 1);
      usage->erase(open, 1);
      return;
    }
  }
  *name = value.IsBoolFlag() ? "" : value.TypeName();
}

std::string ReplaceNewlines(const std::string& s, std::string_view with) {
  std::string out;
  for (char c : s) {
    if (c == '\n') {
      out += with;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

FlagSet::FlagSet(std::string program, std::ostream* output)
    : program_(std::move(program)), output_(output) {}

FlagSet::FlagSet(FlagSet& parent, std::string prefix)
    : program_(parent.program_),
      output_(parent.output_),
      parent_(&parent),
      prefix_(std::move(prefix)) {}

FlagSet::~FlagSet() = default;

void FlagSet::Register(std::string name, FlagValue* value, std::string usage) {
  if (parent_) return parent_->Register(prefix_ + name, value, std::move(usage));
  if (name.empty() || name[0] == '-' || name.find('=') != std::string::npos) {
    throw std::logic_error("flag " + GoQuote(name) + " begins with - or contains =");
  }
  if (flags_.count(name) != 0) throw std::logic_error("flag redefined: " + name);
  std::string default_text = value->String();
  flags_.emplace(std::move(name), Flag{value, std::move(usage), std::move(default_text)});
}

void FlagSet::Bool(std::string name, bool* target, bool default_value, std::string usage) {
  *target = default_value;
  Var(std::move(name), std::make_unique<ScalarValue<bool>>(target, kBoolKind), std::move(usage));
}

void FlagSet::String(std::string name, std::string* target, std::string default_value,
                     std::string usage) {
  *target = std::move(default_value);
  Var(std::move(name), std::make_unique<ScalarValue<std::string>>(target, kStringKind),
      std::move(usage));
}

void FlagSet::Int(std::string name, int64_t* target, int64_t default_value, std::string usage) {
  *target = default_value;
  Var(std::move(name), std::make_unique<ScalarValue<int64_t>>(target, kIntKind), std::move(usage));
}

void FlagSet::Uint(std::string name, uint64_t* target, uint64_t default_value, std::string usage) {
  *target = default_value;
  Var(std::move(name), std::make_unique<ScalarValue<uint64_t>>(target, kUintKind),
      std::move(usage));
}

void FlagSet::Float64(std::string name, double* target, double default_value, std::string usage) {
  *target = default_value;
  Var(std::move(name), std::make_unique<ScalarValue<double>>(target, kFloatKind), std::move(usage));
}

void FlagSet::Duration(std::string name, std::chrono::nanoseconds* target,
                       std::chrono::nanoseconds default_value, std::string usage) {
  *target = default_value;
  Var(std::move(name),
      std::make_unique<ScalarValue<std::chrono::nanoseconds>>(target, kDurationKind),
      std::move(usage));
}

void FlagSet::Var(std::string name, FlagValue* value, std::string usage) {
  Register(std::move(name), value, std::move(usage));
}

void FlagSet::Var(std::string name, std::unique_ptr<FlagValue> value, std::string usage) {
  if (parent_) return parent_->Var(prefix_ + name, std::move(value), std::move(usage));
  owned_values_.push_back(std::move(value));
  Register(std::move(name), owned_values_.back().get(), std::move(usage));
}

Error FlagSet::Fail(const std::string& message) {
  *output_ << message << "\n" << Usage() << std::flush;
  return Error::WithCode(kExitUsageError, message);
}

Status FlagSet::Parse(int argc, const char* const* argv, ParseOptions options) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  return Parse(args, options);
}

Status FlagSet::Parse(const std::vector<std::string>& args, ParseOptions options) {
  if (parent_) throw std::logic_error("a prefixed flag view cannot parse; its parent does");
  size_t next = 0;
  // A bool flag given without `=value` just before a positional argument is
  // the likely culprit; it goes into the error's hint.
  std::string bare_bool_flag;
  while (next < args.size()) {
    const std::string& arg = args[next];
    if (arg.size() < 2 || arg[0] != '-') break;
    size_t minuses = arg[1] == '-' ? 2 : 1;
    if (arg == "--") {
      ++next;
      bare_bool_flag.clear();
      break;
    }
    std::string_view name = std::string_view(arg).substr(minuses);
    if (name.empty() || name[0] == '-' || name[0] == '=') return Fail("bad flag syntax: " + arg);
    ++next;

    std::string_view value;
    bool has_value = false;
    if (size_t eq = name.find('=', 1); eq != std::string_view::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    auto it = flags_.find(name);
    if (it == flags_.end()) {
      if (name == "help" || name == "h") {
        *output_ << Usage() << std::flush;
        return Error::WithCode(kExitHelp, "flag: help requested");
      }
      return Fail("flag provided but not defined: -" + std::string(name));
    }
    Flag& flag = it->second;
    bare_bool_flag.clear();
    if (flag.value->IsBoolFlag()) {
      if (has_value) {
        if (Status s = flag.value->Set(value); !s.ok()) {
          return Fail("invalid boolean value " + GoQuote(value) + " for -" + std::string(name) +
                      ": " + s.error().message);
        }
      } else {
        if (Status s = flag.value->Set("true"); !s.ok()) {
          return Fail("invalid boolean flag " + std::string(name) + ": " + s.error().message);
        }
        bare_bool_flag = std::string(name);
      }
    } else {
      if (!has_value && next < args.size()) {
        value = args[next++];
        has_value = true;
      }
      if (!has_value) return Fail("flag needs an argument: -" + std::string(name));
      if (Status s = flag.value->Set(value); !s.ok()) {
        return Fail("invalid value " + GoQuote(value) + " for flag -" + std::string(name) + ": " +
                    s.error().message);
      }
    }
    flag.set = true;
  }
  args_.assign(args.begin() + next, args.end());
  if (!args_.empty() && !options.allow_positional) {
    std::string message = "unexpected positional argument " + GoQuote(args_[0]);
    if (!bare_bool_flag.empty() && ParseBool(args_[0]).ok()) {
      message += "; boolean flags take their value as --" + bare_bool_flag + "=" + args_[0];
    } else {
      message += "; this program takes only flags";
    }
    return Fail(message);
  }
  return Status::Ok();
}

bool FlagSet::IsSet(std::string_view name) const {
  if (parent_) return parent_->IsSet(prefix_ + std::string(name));
  auto it = flags_.find(name);
  return it != flags_.end() && it->second.set;
}

std::string FlagSet::Usage() const {
  if (parent_) return parent_->Usage();
  std::string out = program_.empty() ? "Usage:\n" : "Usage of " + program_ + ":\n";
  for (const auto& [name, flag] : flags_) {
    std::string line = "  -" + name;
    std::string arg_name, usage = flag.usage;
    UnquoteUsage(*flag.value, &arg_name, &usage);
    if (!arg_name.empty()) line += " " + arg_name;
    // Go keeps a one-letter bool flag's help on its own line.
    line += line.size() <= 4 ? "\t" : "\n    \t";
    line += ReplaceNewlines(usage, "\n    \t");
    if (flag.default_text != flag.value->ZeroString()) {
      line += " (default " +
              (flag.value->QuoteDefault() ? GoQuote(flag.default_text) : flag.default_text) + ")";
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace base
