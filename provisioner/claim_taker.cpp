#include "provisioner/claim_taker.h"

#include <algorithm>
#include <random>

#include "base/duration.h"
#include "base/log.h"
#include "base/strconv.h"
#include "kube/client/api_error.h"

namespace provisioner {
namespace {

constexpr std::chrono::nanoseconds kMinPollInterval = std::chrono::milliseconds(10);

ClaimTaker::Jitter UniformJitter() {
  auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
  auto mu = std::make_shared<std::mutex>();
  return [engine, mu] {
    std::lock_guard lock(*mu);
    return std::uniform_real_distribution<double>(0.0, 1.0)(*engine);
  };
}

std::string ClaimName(const kube::PersistentVolumeClaim& claim) {
  return claim.metadata.namespace_ + "/" + claim.metadata.name;
}

}  // namespace

std::chrono::nanoseconds OwnershipDelay(std::chrono::nanoseconds base, std::chrono::nanoseconds max,
                                        int attempt, double jitter) {
  // Doubling stops at max; past 62 doublings any base is beyond it anyway.
  std::chrono::nanoseconds delay = max;
  if (base.count() <= 0) {
    delay = std::chrono::nanoseconds::zero();
  } else if (attempt < 62 && base.count() <= max.count() >> attempt) {
    delay = base * (int64_t{1} << attempt);
  }
  const auto off = std::chrono::nanoseconds(static_cast<int64_t>(base.count() * jitter));
  return std::max(std::chrono::nanoseconds::zero(), delay - off);
}

std::chrono::nanoseconds OwnershipPollInterval(std::chrono::nanoseconds base) {
  return std::max(base / 100, kMinPollInterval);
}

ClaimTaker::ClaimTaker(const NodeDeploymentOptions& node, ProvisionerApi& api, base::Clock& clock,
                       Jitter jitter)
    : node_(node),
      api_(api),
      clock_(clock),
      jitter_(jitter ? std::move(jitter) : UniformJitter()),
      poll_interval_(OwnershipPollInterval(node.base_delay)) {}

kube::ReconcileResult ClaimTaker::Try(const std::string& key,
                                      const kube::PersistentVolumeClaim& claim,
                                      const RoomCheck& has_room) {
  if (std::optional<base::Clock::Duration> left = WaitLeft(key, claim)) {
    // Polled rather than slept: a worker is not held, and the claim comes
    // back as the cache has it then.
    return kube::Action::RequeueAfter(std::min<base::Clock::Duration>(*left, poll_interval_));
  }
  return TakeNow(key, claim, has_room);
}

std::optional<base::Clock::Duration> ClaimTaker::WaitLeft(
    const std::string& key, const kube::PersistentVolumeClaim& claim) {
  const base::Clock::TimePoint now = clock_.Now();
  std::lock_guard lock(mu_);
  Wait& wait = waits_[key];
  if (wait.claim_uid != claim.metadata.uid.str()) {
    // A claim made anew under the same name starts from the base delay.
    wait = Wait{.claim_uid = claim.metadata.uid.str(), .attempts = 0, .until = std::nullopt};
  }
  if (!wait.until) {
    const auto delay =
        OwnershipDelay(node_.base_delay, node_.max_delay, wait.attempts++, jitter_());
    wait.until = now + std::chrono::duration_cast<base::Clock::Duration>(delay);
    LOG_V(5, "will try to become owner of PVC")
        .With("PVC", ClaimName(claim))
        .With("resourceVersion", claim.metadata.resource_version)
        .With("delay", base::FormatDuration(delay))
        .With("attempt", wait.attempts - 1);
  }
  if (now < *wait.until) return *wait.until - now;
  wait.until.reset();
  return std::nullopt;
}

kube::ReconcileResult ClaimTaker::TakeNow(const std::string& key,
                                          const kube::PersistentVolumeClaim& claim,
                                          const RoomCheck& has_room) {
  base::Result<bool> room = has_room();
  if (!room.ok()) {
    // Provisioning will most likely fail the same way, and say so in an Event.
    LOG_V(3, "proceeding with becoming owner although the capacity check failed")
        .With("err", room.error().message);
  } else if (!*room) {
    LOG_V(5, "not enough capacity for PVC").With("PVC", ClaimName(claim));
    return kube::Action::Done();
  }
  base::Status written = api_.SelectNode(claim.metadata.namespace_, claim.metadata.name,
                                         claim.metadata.resource_version, node_.node_name);
  if (written.ok()) {
    LOG_V(5, "became owner of PVC").With("PVC", ClaimName(claim));
    Forget(key);
    return kube::Action::Done();
  }
  if (kube::IsConflict(written.error())) {
    LOG_V(3, "conflict during PVC update, will try again").With("PVC", ClaimName(claim));
    return Try(key, claim, has_room);
  }
  return written.error().Wrap("PVC " + ClaimName(claim) + ": selecting node " +
                              base::GoQuote(node_.node_name) + " for PVC failed");
}

void ClaimTaker::Forget(const std::string& key) {
  std::lock_guard lock(mu_);
  waits_.erase(key);
}

}  // namespace provisioner
