// ControllerPart: one sidecar's controllers as csi-sidecars runs them beside
// the others' (docs/csi-sidecars.md): over the process's one CSI connection,
// API transport, informers and HTTP endpoint, each under a Lease of its own.
// A part owns its flags, its options and its metrics; the process owns
// everything shared. Each sidecar's command folder makes its part.
//
// Life cycle, in order: RegisterFlags (on a view prefixed "<name>-"),
// Configure once the command line is parsed, Prepare once the driver has
// named itself (an error: the part stays off, the others run, as the
// separate sidecar would have exited), Build on the shared informers before
// they start, then the built controllers' Run while the part's Lease is
// held, at most once. Everything is called from the process's main thread
// but Run, which gets a thread of its own.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "base/flags.h"
#include "base/result.h"
#include "component/feature_gates.h"
#include "component/sidecar_metric_families.h"
#include "component/sidecar_startup.h"
#include "component/standard_flags.h"
#include "component/volume_attributes_class_gate.h"
#include "kube/client/client.h"
#include "kube/runtime/informer_set.h"

namespace component {

// A part's controllers, built on the shared informers: they register their
// event handlers there and read their stores, so they must go before the
// informers do.
class BuiltControllers {
 public:
  virtual ~BuiltControllers() = default;
  // Runs them until `stop`; returns once they stopped.
  virtual void Run(std::stop_token stop) = 0;
};

// A BuiltControllers of any T with T::Run(std::stop_token).
template <class T>
class BuiltOf final : public BuiltControllers {
 public:
  template <class... Args>
  explicit BuiltOf(Args&&... args) : controllers_(std::forward<Args>(args)...) {}
  void Run(std::stop_token stop) override { controllers_.Run(stop); }

 private:
  T controllers_;
};

// What the process hands a part once its command line is parsed.
struct SharedSettings {
  const SidecarOptions& options;  // the flags given once
  const FeatureGates& gates;
  // --timeout when given: the default of every part's own --<name>-timeout.
  std::optional<std::chrono::nanoseconds> timeout;
  // The VolumeAttributesClass gate, settled once for all parts.
  VolumeAttributesClassGateOnce& volume_attributes_class;
};

class ControllerPart {
 public:
  virtual ~ControllerPart() = default;

  // "attacher": its --controllers entry and its flags' prefix.
  virtual std::string_view name() const = 0;
  // The gates the separate sidecar accepts.
  virtual const std::vector<FeatureSpec>& feature_specs() const = 0;
  // The environment variable naming its leader-election identity.
  virtual const char* identity_variable() const = 0;

  // Its own flags, on `flags` (a prefixed view of the process's set, which
  // must outlive the part).
  virtual void RegisterFlags(base::FlagSet& flags) = 0;
  // The flags are parsed: checks them (an error ends start-up, exit 1) and
  // adds the part's metric families to `families`, which outlives the part.
  virtual base::Status Configure(const SharedSettings& shared, const base::FlagSet& flags,
                                 SidecarMetricFamilies& families) = 0;
  // Deadline of its CSI calls: the process probes with the longest.
  virtual std::chrono::nanoseconds csi_timeout() const = 0;
  // Whether its CSI calls carry the `migrated` label for a migration target.
  virtual bool labels_migrated_calls() const = 0;
  // How often its informers' objects are handed to it again.
  virtual std::chrono::nanoseconds resync_period() const = 0;

  // The driver is known: whether the part can run with it (the error says
  // why not, as the separate sidecar would have logged it before exiting).
  // `client` (its own QPS budget) outlives the part.
  virtual base::Status Prepare(const CsiDriver& driver, kube::Client& client) = 0;
  // The Lease it holds while running.
  virtual std::string lease_name() const = 0;
  // Builds its controllers on `informers` (not started yet).
  virtual std::unique_ptr<BuiltControllers> Build(kube::InformerSet& informers) = 0;
};

}  // namespace component
