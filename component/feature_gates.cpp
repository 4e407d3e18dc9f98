#include "component/feature_gates.h"

#include <algorithm>
#include <stdexcept>

#include "base/log.h"

namespace component {
namespace {

constexpr FeatureStage kAlpha = FeatureStage::kAlpha;
constexpr FeatureStage kBeta = FeatureStage::kBeta;
constexpr FeatureStage kGA = FeatureStage::kGA;
constexpr FeatureStage kDeprecated = FeatureStage::kDeprecated;

std::string_view StageName(FeatureStage stage) {
  switch (stage) {
    case FeatureStage::kAlpha:
      return "ALPHA";
    case FeatureStage::kBeta:
      return "BETA";
    case FeatureStage::kGA:
      return "";
    case FeatureStage::kDeprecated:
      return "DEPRECATED";
  }
  return "";
}

std::string_view BoolText(bool value) { return value ? "true" : "false"; }

}  // namespace

std::string FormatFeatureGates(const std::map<std::string, bool>& gates) {
  std::string out;
  for (const auto& [name, value] : gates) {
    out += (out.empty() ? "{\"" : ",\"") + name + "\":" + std::string(BoolText(value));
  }
  return out.empty() ? "{}" : out + "}";
}

std::vector<FeatureSpec> SortedByName(std::vector<FeatureSpec> specs) {
  std::sort(specs.begin(), specs.end(),
            [](const FeatureSpec& a, const FeatureSpec& b) { return a.name < b.name; });
  return specs;
}

FeatureGates::FeatureGates(const std::vector<FeatureSpec>& specs) : specs_(specs) {
  std::sort(specs_.begin(), specs_.end(),
            [](const FeatureSpec& a, const FeatureSpec& b) { return a.name < b.name; });
}

const FeatureSpec* FeatureGates::Find(std::string_view name) const {
  auto it =
      std::lower_bound(specs_.begin(), specs_.end(), name,
                       [](const FeatureSpec& spec, std::string_view n) { return spec.name < n; });
  return it != specs_.end() && it->name == name ? &*it : nullptr;
}

base::Status FeatureGates::SetFromMap(const std::map<std::string, bool>& settings) {
  auto enabled = enabled_;
  std::vector<std::string> errors;
  for (const auto& [name, value] : settings) {
    const FeatureSpec* spec = Find(name);
    if (spec == nullptr) {
      // Upstream stops at the first unknown name.
      errors.push_back("unrecognized feature gate: " + name);
      break;
    }
    if (spec->locked_to_default && spec->default_enabled != value) {
      errors.push_back("cannot set feature gate " + name + " to " + std::string(BoolText(value)) +
                       ", feature is locked to " + std::string(BoolText(spec->default_enabled)));
      continue;
    }
    enabled[name] = value;
    if (name == kAllAlpha || name == kAllBeta) {
      FeatureStage stage = name == kAllAlpha ? kAlpha : kBeta;
      for (const FeatureSpec& other : specs_) {
        if (other.stage != stage || other.name == kAllAlpha || other.name == kAllBeta) continue;
        std::string other_name(other.name);
        // An explicit setting wins over the blanket one, whatever the order.
        if (settings.count(other_name) == 0 && enabled.count(other_name) == 0) {
          enabled[other_name] = value;
        }
      }
    } else if (spec->stage == kGA || spec->stage == kDeprecated) {
      // Upstream logs these at info level despite the wording.
      LOG_INFO(spec->stage == kGA
                   ? "Warning: setting GA feature gate. It will be removed in a future release."
                   : "Warning: setting deprecated feature gate. It will be removed in a future "
                     "release.")
          .With("featureGate", name)
          .With("value", value);
    }
  }
  if (errors.size() == 1) return base::Error(errors[0]);
  if (!errors.empty()) {
    std::string joined;
    for (const std::string& e : errors) joined += (joined.empty() ? "" : ", ") + e;
    return base::Error("[" + joined + "]");
  }
  enabled_ = std::move(enabled);
  LOG_V(1, "Updated").With("featureGates", FormatFeatureGates(enabled_));
  return base::Status::Ok();
}

bool FeatureGates::Enabled(std::string_view name) const {
  const FeatureSpec* spec = Find(name);
  if (spec == nullptr) throw std::logic_error("unknown feature gate " + std::string(name));
  auto it = enabled_.find(std::string(name));
  return it != enabled_.end() ? it->second : spec->default_enabled;
}

std::vector<std::string> FeatureGates::KnownFeatures() const {
  std::vector<std::string> lines;
  for (const FeatureSpec& spec : specs_) {
    if (spec.stage == kGA || spec.stage == kDeprecated) continue;
    lines.push_back(std::string(spec.name) + "=true|false (" + std::string(StageName(spec.stage)) +
                    " - default=" + std::string(BoolText(spec.default_enabled)) + ")");
  }
  return lines;
}

}  // namespace component
