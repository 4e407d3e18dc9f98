// WriteObserver: learns of every object this thread writes through a Client.
//
// A controller's own writes come back to it as watch events; to tell them
// from other writers' changes it must know the resourceVersion each write
// produced. The Client reports every successful create, update and patch
// (status included) to the observer installed on the calling thread, with
// the written object's kind, namespace, name and the resourceVersion of the
// server's answer, before the write call returns. Deletes are not reported:
// a deletion is a change every controller must see.
//
// ScopedWriteObserver installs an observer for its lifetime on the thread
// that creates it, restoring the previous one (nested scopes nest). With no
// observer installed, writes are reported to nobody.
//
// Thread-safety: an observer is called only on the thread that installed it.
#pragma once

#include <string_view>

#include "kube/api/kind.h"

namespace kube {

class WriteObserver {
 public:
  virtual ~WriteObserver() = default;
  // `kind` identifies the kind by its facts' address (one per C++ kind).
  virtual void OnWritten(const KindFacts* kind, std::string_view ns, std::string_view name,
                         std::string_view resource_version) = 0;
};

class ScopedWriteObserver {
 public:
  explicit ScopedWriteObserver(WriteObserver& observer);
  ~ScopedWriteObserver();
  ScopedWriteObserver(const ScopedWriteObserver&) = delete;
  ScopedWriteObserver& operator=(const ScopedWriteObserver&) = delete;

  // The observer installed on this thread, or null.
  static WriteObserver* Current();

 private:
  WriteObserver* const previous_;
};

// Reports `written`, the server's answer to a write of kind T, to this
// thread's observer, if any.
template <class T>
void ReportWrite(const T& written) {
  if (WriteObserver* observer = ScopedWriteObserver::Current()) {
    observer->OnWritten(&T::kFacts, written.metadata.namespace_, written.metadata.name,
                        written.metadata.resource_version);
  }
}

}  // namespace kube
