#include "kube/client/write_observer.h"

namespace kube {
namespace {

thread_local WriteObserver* current_observer = nullptr;

}  // namespace

ScopedWriteObserver::ScopedWriteObserver(WriteObserver& observer) : previous_(current_observer) {
  current_observer = &observer;
}

ScopedWriteObserver::~ScopedWriteObserver() { current_observer = previous_; }

WriteObserver* ScopedWriteObserver::Current() { return current_observer; }

}  // namespace kube
