#include "bench/va_observer.h"

#include <thread>

namespace bench {

base::Result<std::unique_ptr<VaObserver>> VaObserver::Start(kube::Client& admin) {
  std::unique_ptr<VaObserver> observer(new VaObserver());
  auto watch =
      VaWatch::Start(admin, [o = observer.get()](const kube::VolumeAttachment& va, bool deleted) {
        o->Record(va, deleted, Clock::now());
      });
  if (!watch.ok()) return watch.error();
  observer->watch_ = std::move(*watch);
  return observer;
}

void VaObserver::Record(const kube::VolumeAttachment& va, bool deleted, Clock::time_point when) {
  std::lock_guard lock(mu_);
  Stamps& stamps = stamps_[va.metadata.name];
  if (va.status.attached && !stamps.attached) stamps.attached = when;
  if (deleted && !stamps.deleted) stamps.deleted = when;
}

std::optional<Clock::time_point> VaObserver::AttachedAt(const std::string& name) const {
  std::lock_guard lock(mu_);
  auto it = stamps_.find(name);
  return it == stamps_.end() ? std::nullopt : it->second.attached;
}

std::optional<Clock::time_point> VaObserver::DeletedAt(const std::string& name) const {
  std::lock_guard lock(mu_);
  auto it = stamps_.find(name);
  return it == stamps_.end() ? std::nullopt : it->second.deleted;
}

size_t VaObserver::CountAttached(const std::vector<std::string>& names) const {
  std::lock_guard lock(mu_);
  size_t count = 0;
  for (const auto& name : names) {
    auto it = stamps_.find(name);
    if (it != stamps_.end() && it->second.attached) ++count;
  }
  return count;
}

size_t VaObserver::CountDeleted(const std::vector<std::string>& names) const {
  std::lock_guard lock(mu_);
  size_t count = 0;
  for (const auto& name : names) {
    auto it = stamps_.find(name);
    if (it != stamps_.end() && it->second.deleted) ++count;
  }
  return count;
}

bool VaObserver::WaitUntil(const std::function<bool()>& done, std::chrono::seconds timeout) {
  auto deadline = Clock::now() + timeout;
  while (!done()) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace bench
