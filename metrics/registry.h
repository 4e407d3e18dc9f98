// Registry: Prometheus counters, gauges and histograms in labelled families,
// plus function families evaluated at scrape time, exposed in the Prometheus
// text format 0.0.4 (written by hand: no Prometheus C++ client is packaged in
// Debian bookworm).
//
// Families are registered once by name (a duplicate name is a programming
// error and throws std::logic_error). A child (one label-value combination) is
// created on first use and lives as long as its family, so callers look it up
// once and keep the reference: updates are then single atomic operations.
//
// Exposition follows client_golang: families sorted by name, families without
// samples omitted, label pairs sorted by label name, children sorted by label
// values, HELP prefixed with the Kubernetes stability level ("[ALPHA] ").
//
// Thread-safety: everything may be called from any thread. Updates are
// lock-free. A scrape must never stall the controller's threads, so Expose()
// holds the registry's mutex only to copy the list of families (shared, so a
// family removed meanwhile lives until the scrape ends) and a family's mutex
// only to copy its child pointers; formatting runs under no lock that child
// lookup, registration or removal takes. Function families call their
// functions under their own mutex, so a Registration's destructor waits for a
// scrape that is using its function.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace metrics {

// component-base's stability levels; kNone for client_golang's own metrics.
enum class Stability { kNone, kAlpha, kBeta, kStable };

struct Desc {
  std::string name;
  std::string help;
  Stability stability = Stability::kNone;
  std::vector<std::string> label_names = {};
};

using LabelValues = std::vector<std::string>;
// (label name, label value), as written in the exposition.
using LabelPairs = std::vector<std::pair<std::string, std::string>>;

class Counter {
 public:
  void Inc(double delta = 1) { value_.fetch_add(delta, std::memory_order_relaxed); }
  double Value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

class Gauge {
 public:
  void Set(double value) { value_.store(value, std::memory_order_relaxed); }
  void Add(double delta) { value_.fetch_add(delta, std::memory_order_relaxed); }
  double Value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

// Buckets are upper bounds in increasing order; +Inf is implicit. A scrape
// racing an Observe may see the count one ahead of a bucket, as with any
// lock-free histogram; every observation is eventually reflected exactly.
class Histogram {
 public:
  explicit Histogram(const std::vector<double>& bounds);
  void Observe(double value);

  struct Snapshot {
    std::vector<uint64_t> cumulative;  // one per bound, then +Inf
    double sum = 0;
    uint64_t count = 0;
  };
  Snapshot Read() const;

 private:
  const std::vector<double>& bounds_;                 // owned by the family
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_;  // bounds_.size() + 1
  std::atomic<double> sum_{0};
  std::atomic<uint64_t> count_{0};
};

enum class Type { kCounter, kGauge, kHistogram };

// One family as the exposition sees it.
class Family {
 public:
  Family(Desc desc, Type type) : desc_(std::move(desc)), type_(type) {}
  virtual ~Family() = default;
  Family(const Family&) = delete;
  Family& operator=(const Family&) = delete;

  const Desc& desc() const { return desc_; }
  // Appends this family's HELP, TYPE and samples (nothing without samples).
  virtual void Write(std::string& out) const = 0;

 protected:
  // Throws std::logic_error when the count does not match the label names.
  void CheckArity(const LabelValues& values) const;
  void WriteHeader(std::string& out) const;
  // Header and one sample per child, for children holding one value.
  template <class T>
  void WriteValues(std::string& out,
                   const std::vector<std::pair<LabelPairs, const T*>>& children) const;
  const Desc desc_;
  const Type type_;
};

template <class T>
class ChildFamily : public Family {
 public:
  // Returns the child for `values` (one per label name), creating it once.
  T& WithLabels(const LabelValues& values);

 protected:
  using Family::Family;
  virtual std::unique_ptr<T> MakeChild() const = 0;
  // The children in exposition order (label pairs sorted by name, children
  // by those pairs), copied under mu_ and sorted after releasing it.
  std::vector<std::pair<LabelPairs, const T*>> OrderedChildren() const;
  mutable std::mutex mu_;  // guards children_
  std::map<LabelValues, std::unique_ptr<T>> children_;
};

class CounterFamily : public ChildFamily<Counter> {
 public:
  explicit CounterFamily(Desc desc) : ChildFamily(std::move(desc), Type::kCounter) {}
  void Write(std::string& out) const override;

 private:
  std::unique_ptr<Counter> MakeChild() const override { return std::make_unique<Counter>(); }
};

class GaugeFamily : public ChildFamily<Gauge> {
 public:
  explicit GaugeFamily(Desc desc) : ChildFamily(std::move(desc), Type::kGauge) {}
  void Write(std::string& out) const override;

 private:
  std::unique_ptr<Gauge> MakeChild() const override { return std::make_unique<Gauge>(); }
};

class HistogramFamily : public ChildFamily<Histogram> {
 public:
  HistogramFamily(Desc desc, std::vector<double> bounds);
  void Write(std::string& out) const override;

 private:
  std::unique_ptr<Histogram> MakeChild() const override;
  const std::vector<double> bounds_;
};

struct Sample {
  LabelValues label_values;
  double value = 0;
};
using SampleFunction = std::function<std::vector<Sample>()>;

// Counters or gauges whose samples come from functions called at scrape time.
class FunctionFamily : public Family {
 public:
  // Removes its function from the family when destroyed or reset.
  class Registration {
   public:
    Registration() = default;
    Registration(FunctionFamily* family, uint64_t id) : family_(family), id_(id) {}
    Registration(Registration&& other) noexcept;
    Registration& operator=(Registration&& other) noexcept;
    ~Registration() { Reset(); }
    // Removes the function now.
    void Reset();
    // Keeps the function for the family's whole life.
    void Release() { family_ = nullptr; }

   private:
    FunctionFamily* family_ = nullptr;
    uint64_t id_ = 0;
  };

  FunctionFamily(Desc desc, Type type) : Family(std::move(desc), type) {}
  // The family must outlive the returned registration.
  [[nodiscard]] Registration Add(SampleFunction function);
  void Write(std::string& out) const override;

 private:
  mutable std::mutex mu_;  // guards functions_ and next_id_
  std::map<uint64_t, SampleFunction> functions_;
  uint64_t next_id_ = 0;
};

class Registry {
 public:
  CounterFamily& AddCounter(Desc desc);
  GaugeFamily& AddGauge(Desc desc);
  HistogramFamily& AddHistogram(Desc desc, std::vector<double> bounds);
  // `type` is kCounter or kGauge.
  FunctionFamily& AddFunctions(Desc desc, Type type);
  // Unregisters and destroys a family; nothing may use it any more.
  void Remove(const std::string& name);

  // The whole registry in the text format 0.0.4.
  std::string Expose() const;

 private:
  template <class F, class... Args>
  F& Add(Desc desc, Args&&... args);

  mutable std::mutex mu_;  // guards families_
  std::map<std::string, std::shared_ptr<Family>> families_;
};

// Bucket helpers, as client_golang's ExponentialBuckets.
std::vector<double> ExponentialBuckets(double start, double factor, int count);

}  // namespace metrics
