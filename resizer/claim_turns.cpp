#include "resizer/claim_turns.h"

#include <utility>

namespace resizer {

ClaimTurns::Turn::Turn(Turn&& other) noexcept
    : turns_(std::exchange(other.turns_, nullptr)), key_(std::move(other.key_)) {}

ClaimTurns::Turn::~Turn() {
  if (turns_) turns_->GiveBack(key_);
}

std::optional<ClaimTurns::Turn> ClaimTurns::TryTake(const std::string& key,
                                                    std::function<void()> wake) {
  std::lock_guard lock(mu_);
  auto [it, free] = taken_.try_emplace(key);
  if (free) return Turn(*this, key);
  it->second.push_back(std::move(wake));
  return std::nullopt;
}

void ClaimTurns::GiveBack(const std::string& key) {
  std::vector<std::function<void()>> waiting;
  {
    std::lock_guard lock(mu_);
    auto it = taken_.find(key);
    if (it == taken_.end()) return;
    waiting = std::move(it->second);
    taken_.erase(it);
  }
  for (const auto& wake : waiting) wake();
}

std::optional<ClaimInTurn> TakeTurn(ClaimTurns& turns,
                                    kube::Controller<kube::PersistentVolumeClaim>& controller,
                                    const std::string& key) {
  std::optional<ClaimTurns::Turn> turn =
      turns.TryTake(key, [&controller, key] { controller.Enqueue(key); });
  if (!turn) return std::nullopt;
  // Read again now: the sync that held the turn may have written the claim.
  return ClaimInTurn{.turn = std::move(*turn), .claim = controller.store().GetByKey(key)};
}

base::Result<kube::PersistentVolumeClaim> WriteClaimStatus(
    ResizerApi& api, kube::Store<kube::PersistentVolumeClaim>& claims,
    const kube::PersistentVolumeClaim& base, const std::string& patch) {
  base::Result<kube::PersistentVolumeClaim> written =
      api.PatchClaimStatus(base.metadata.namespace_, base.metadata.name, patch);
  if (!written.ok()) return written;
  std::shared_ptr<const kube::PersistentVolumeClaim> cached =
      claims.Get(base.metadata.namespace_, base.metadata.name);
  if (cached && cached->metadata.resource_version == base.metadata.resource_version) {
    claims.ReplaceIfCurrent(cached, std::make_shared<const kube::PersistentVolumeClaim>(*written));
  }
  return written;
}

}  // namespace resizer
