#include "snapshotter/credentials.h"

#include <string>
#include <string_view>

#include "base/log.h"
#include "base/strconv.h"
#include "snapshotter/kind_words.h"
#include "snapshotter/secret_references.h"

namespace snapshotter {
namespace {

template <class Content>
base::Result<Secrets> ReadDeletionCredentials(SnapshotApi& api, const Content& content) {
  auto ref = DeletionSecretOf(content);
  if (!ref.ok()) return ref.error();
  if (!*ref) return Secrets();
  auto secret = api.GetSecret((*ref)->namespace_, (*ref)->name);
  if (!secret.ok()) {
    // The reason is logged, not returned, as upstream does.
    LOG_ERROR("Failed to get credentials")
        .With(Content::kFacts.kind, content.metadata.name)
        .With("secret", (*ref)->namespace_ + "/" + (*ref)->name)
        .With("err", secret.error().message);
    constexpr KindWords kWhat = {"snapshot content ", "group snapshot content "};
    return base::Error("cannot get credentials for " + std::string(WordsFor<Content>(kWhat)) +
                       base::GoQuote(content.metadata.name));
  }
  return ToSecrets(secret->data);
}

}  // namespace

Secrets ToSecrets(const kube::StringMap& data) { return Secrets(data.begin(), data.end()); }

base::Result<Secrets> ReadSecret(SnapshotApi& api,
                                 const std::optional<kube::SecretReference>& ref) {
  if (!ref) return Secrets();
  auto secret = api.GetSecret(ref->namespace_, ref->name);
  if (!secret.ok()) {
    return secret.error().Wrap("error getting secret " + ref->name + " in namespace " +
                               ref->namespace_);
  }
  return ToSecrets(secret->data);
}

base::Result<Secrets> DeletionCredentials(SnapshotApi& api,
                                          const kube::VolumeSnapshotContent& content) {
  return ReadDeletionCredentials(api, content);
}

base::Result<Secrets> DeletionCredentials(SnapshotApi& api,
                                          const kube::VolumeGroupSnapshotContent& content) {
  return ReadDeletionCredentials(api, content);
}

}  // namespace snapshotter
