// EventHandler<T>: what a Reflector tells its owner. Calls may come from the
// watch thread and the resync thread concurrently; implementations are expected
// to do little more than filter and enqueue.
#pragma once

#include <memory>

namespace kube {

template <class T>
class EventHandler {
 public:
  using Ptr = std::shared_ptr<const T>;
  virtual ~EventHandler() = default;
  virtual void OnAdd(const Ptr& object) = 0;
  // Also called with old == current on every resync period.
  virtual void OnUpdate(const Ptr& old_object, const Ptr& new_object) = 0;
  // `last_known` is the final state the watch reported, or the cached state
  // when the deletion was discovered by a relist.
  virtual void OnDelete(const Ptr& last_known) = 0;
  // The store was filled again by a complete list (not the first one), after
  // the watch was lost or had fallen too far behind; what changed meanwhile
  // was reported first as adds, updates and deletes. The API server answers
  // again: work that failed while it did not may now succeed.
  virtual void OnRelisted() {}
};

}  // namespace kube
