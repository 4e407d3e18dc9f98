#include "metrics/registry.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "metrics/text_format.h"

namespace metrics {
namespace {

std::string_view StabilityPrefix(Stability stability) {
  switch (stability) {
    case Stability::kAlpha:
      return "[ALPHA] ";
    case Stability::kBeta:
      return "[BETA] ";
    case Stability::kStable:
      return "[STABLE] ";
    case Stability::kNone:
      break;
  }
  return "";
}

std::string_view TypeName(Type type) {
  switch (type) {
    case Type::kCounter:
      return "counter";
    case Type::kGauge:
      return "gauge";
    case Type::kHistogram:
      return "histogram";
  }
  return "untyped";
}

LabelPairs SortedPairs(const std::vector<std::string>& names, const LabelValues& values) {
  LabelPairs pairs;
  pairs.reserve(names.size());
  for (size_t i = 0; i < names.size() && i < values.size(); ++i) {
    pairs.emplace_back(names[i], values[i]);
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace

Histogram::Histogram(const std::vector<double>& bounds)
    : bounds_(bounds), buckets_(std::make_unique<std::atomic<uint64_t>[]>(bounds.size() + 1)) {}

void Histogram::Observe(double value) {
  size_t i = std::lower_bound(bounds_.begin(), bounds_.end(), value) - bounds_.begin();
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::Read() const {
  Snapshot snapshot;
  snapshot.count = count_.load(std::memory_order_relaxed);
  snapshot.sum = sum_.load(std::memory_order_relaxed);
  uint64_t total = 0;
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    total += buckets_[i].load(std::memory_order_relaxed);
    snapshot.cumulative.push_back(total);
  }
  return snapshot;
}

void Family::CheckArity(const LabelValues& values) const {
  if (values.size() != desc_.label_names.size()) {
    throw std::logic_error("metric " + desc_.name + ": wrong number of label values");
  }
}

void Family::WriteHeader(std::string& out) const {
  out.append("# HELP ").append(desc_.name).append(" ");
  out.append(StabilityPrefix(desc_.stability)).append(EscapeHelp(desc_.help)).append("\n");
  out.append("# TYPE ").append(desc_.name).append(" ").append(TypeName(type_)).append("\n");
}

template <class T>
T& ChildFamily<T>::WithLabels(const LabelValues& values) {
  CheckArity(values);
  std::lock_guard lock(mu_);
  std::unique_ptr<T>& child = children_[values];
  if (!child) child = MakeChild();
  return *child;
}

template <class T>
std::vector<std::pair<LabelPairs, const T*>> ChildFamily<T>::OrderedChildren() const {
  // Children live as long as the family and their keys never change, so
  // their addresses may be read after the lock is released.
  std::vector<std::pair<const LabelValues*, const T*>> children;
  {
    std::lock_guard lock(mu_);
    children.reserve(children_.size());
    for (const auto& [values, child] : children_) children.emplace_back(&values, child.get());
  }
  std::vector<std::pair<LabelPairs, const T*>> out;
  out.reserve(children.size());
  for (const auto& [values, child] : children) {
    out.emplace_back(SortedPairs(desc_.label_names, *values), child);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

template class ChildFamily<Counter>;
template class ChildFamily<Gauge>;
template class ChildFamily<Histogram>;

template <class T>
void Family::WriteValues(std::string& out,
                         const std::vector<std::pair<LabelPairs, const T*>>& children) const {
  if (children.empty()) return;
  WriteHeader(out);
  for (const auto& [labels, child] : children) {
    AppendSample(out, desc_.name, labels, child->Value());
  }
}

void CounterFamily::Write(std::string& out) const { WriteValues(out, OrderedChildren()); }

void GaugeFamily::Write(std::string& out) const { WriteValues(out, OrderedChildren()); }

HistogramFamily::HistogramFamily(Desc desc, std::vector<double> bounds)
    : ChildFamily(std::move(desc), Type::kHistogram), bounds_(std::move(bounds)) {
  if (!std::is_sorted(bounds_.begin(), bounds_.end())) {
    throw std::logic_error("histogram " + desc_.name + ": buckets not sorted");
  }
}

std::unique_ptr<Histogram> HistogramFamily::MakeChild() const {
  return std::make_unique<Histogram>(bounds_);
}

void HistogramFamily::Write(std::string& out) const {
  auto children = OrderedChildren();
  if (children.empty()) return;
  WriteHeader(out);
  const std::string bucket = desc_.name + "_bucket";
  for (const auto& [labels, child] : children) {
    Histogram::Snapshot snapshot = child->Read();
    LabelPairs with_le = labels;
    with_le.emplace_back("le", "");
    for (size_t i = 0; i <= bounds_.size(); ++i) {
      with_le.back().second = i < bounds_.size() ? FormatValue(bounds_[i]) : "+Inf";
      AppendSample(out, bucket, with_le, static_cast<double>(snapshot.cumulative[i]));
    }
    AppendSample(out, desc_.name + "_sum", labels, snapshot.sum);
    AppendSample(out, desc_.name + "_count", labels, static_cast<double>(snapshot.count));
  }
}

FunctionFamily::Registration::Registration(Registration&& other) noexcept
    : family_(std::exchange(other.family_, nullptr)), id_(other.id_) {}

FunctionFamily::Registration& FunctionFamily::Registration::operator=(
    Registration&& other) noexcept {
  if (this != &other) {
    Reset();
    family_ = std::exchange(other.family_, nullptr);
    id_ = other.id_;
  }
  return *this;
}

void FunctionFamily::Registration::Reset() {
  if (family_ == nullptr) return;
  std::lock_guard lock(family_->mu_);
  family_->functions_.erase(id_);
  family_ = nullptr;
}

FunctionFamily::Registration FunctionFamily::Add(SampleFunction function) {
  std::lock_guard lock(mu_);
  uint64_t id = next_id_++;
  functions_.emplace(id, std::move(function));
  return Registration(this, id);
}

void FunctionFamily::Write(std::string& out) const {
  std::vector<std::pair<LabelPairs, double>> samples;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, function] : functions_) {
      for (Sample& sample : function()) {
        CheckArity(sample.label_values);
        samples.emplace_back(SortedPairs(desc_.label_names, sample.label_values), sample.value);
      }
    }
  }
  if (samples.empty()) return;
  std::stable_sort(samples.begin(), samples.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  WriteHeader(out);
  for (const auto& [labels, value] : samples) AppendSample(out, desc_.name, labels, value);
}

template <class F, class... Args>
F& Registry::Add(Desc desc, Args&&... args) {
  std::string name = desc.name;
  auto family = std::make_shared<F>(std::move(desc), std::forward<Args>(args)...);
  F& ref = *family;
  std::lock_guard lock(mu_);
  if (!families_.emplace(std::move(name), std::move(family)).second) {
    throw std::logic_error("metric " + ref.desc().name + " registered twice");
  }
  return ref;
}

CounterFamily& Registry::AddCounter(Desc desc) { return Add<CounterFamily>(std::move(desc)); }

GaugeFamily& Registry::AddGauge(Desc desc) { return Add<GaugeFamily>(std::move(desc)); }

HistogramFamily& Registry::AddHistogram(Desc desc, std::vector<double> bounds) {
  return Add<HistogramFamily>(std::move(desc), std::move(bounds));
}

FunctionFamily& Registry::AddFunctions(Desc desc, Type type) {
  if (type == Type::kHistogram) throw std::logic_error("function families hold no histograms");
  return Add<FunctionFamily>(std::move(desc), type);
}

void Registry::Remove(const std::string& name) {
  std::lock_guard lock(mu_);
  families_.erase(name);
}

std::string Registry::Expose() const {
  std::vector<std::shared_ptr<const Family>> families;
  {
    std::lock_guard lock(mu_);
    families.reserve(families_.size());
    for (const auto& [name, family] : families_) families.push_back(family);
  }
  std::string out;
  for (const auto& family : families) family->Write(out);
  return out;
}

std::vector<double> ExponentialBuckets(double start, double factor, int count) {
  std::vector<double> buckets;
  double bound = start;
  for (int i = 0; i < count; ++i, bound *= factor) buckets.push_back(bound);
  return buckets;
}

}  // namespace metrics
