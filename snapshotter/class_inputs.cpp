#include "snapshotter/class_inputs.h"

#include <string_view>

#include "base/strconv.h"
#include "snapshotter/content_state.h"
#include "snapshotter/create_parameters.h"
#include "snapshotter/credentials.h"
#include "snapshotter/kind_words.h"
#include "snapshotter/secret_references.h"

namespace snapshotter {
namespace {

// Each kind's words in upstream's errors.
constexpr KindWords kClassResource = {"volumesnapshotclass.snapshot.storage.k8s.io ",
                                      "volumegroupsnapshotclass.groupsnapshot.storage.k8s.io "};
constexpr KindWords kContentPrefix = {"snapshot content ", "group snapshot content "};
constexpr KindWords kCreateInput = {
    "failed to get input parameters to create snapshot for content ",
    "failed to get input parameters to create group snapshot for group snapshot content "};
constexpr KindWords kSnapshotPrefix = {"snapshot ", "group snapshot "};
constexpr KindWords kClassWords = {"snapshot class", "group snapshot class"};

// The lister's NotFound, as upstream quotes it in its messages.
template <class Content>
std::string ClassNotFound(const std::string& name) {
  return std::string(WordsFor<Content>(kClassResource)) + base::GoQuote(name) + " not found";
}

// The Secret of the check of an imported snapshot, from the class parameters.
base::Result<std::optional<kube::SecretReference>> CheckSecretOf(const kube::VolumeSnapshotContent&,
                                                                 const kube::StringMap& parameters,
                                                                 std::string_view content_name) {
  return ListSecretOf(parameters, content_name);
}
base::Result<std::optional<kube::SecretReference>> CheckSecretOf(
    const kube::VolumeGroupSnapshotContent&, const kube::StringMap& parameters,
    std::string_view content_name) {
  return GroupGetSecretOf(parameters, content_name);
}

}  // namespace

template <class Content, class Class>
base::Result<CreateInputs> CreateInputsOf(const Content& content, const kube::Store<Class>& classes,
                                          SnapshotApi& api, bool extra_create_metadata) {
  const std::string& name = content.metadata.name;
  auto input_error = [&](const std::string& message) {
    return base::Error(std::string(WordsFor<Content>(kCreateInput)) + name + ": " +
                       base::GoQuote(message));
  };
  kube::StringMap class_parameters;
  if (const auto& class_name = ClassNameOf(content)) {
    auto content_class = classes.Get("", *class_name);
    if (!content_class) return input_error(ClassNotFound<Content>(*class_name));
    class_parameters = content_class->parameters;
  } else if (SnapshotsVolumes(content)) {
    return input_error("failed to take " + std::string(WordsFor<Content>(kSnapshotPrefix)) + name +
                       " without a " + std::string(WordsFor<Content>(kClassWords)));
  }
  auto secrets = DeletionCredentials(api, content);
  if (!secrets.ok()) return input_error(secrets.error().message);
  auto parameters = CreateParameters(class_parameters, content, extra_create_metadata);
  if (!parameters.ok()) return parameters.error();
  return CreateInputs{.parameters = std::move(*parameters), .secrets = std::move(*secrets)};
}

template <class Content, class Class>
base::Result<Secrets> CheckCredentialsOf(const Content& content, const kube::Store<Class>& classes,
                                         SnapshotApi& api) {
  const std::string& name = content.metadata.name;
  const std::string of_content = " for " + std::string(WordsFor<Content>(kContentPrefix)) + name;
  const auto& class_name = ClassNameOf(content);
  if (!class_name) return Secrets();
  auto content_class = classes.Get("", *class_name);
  if (!content_class) {
    return base::Error("failed to get " + std::string(WordsFor<Content>(kClassWords)) + " " +
                       *class_name + of_content + ": " + ClassNotFound<Content>(*class_name));
  }
  auto ref = CheckSecretOf(content, content_class->parameters, name);
  if (!ref.ok()) return ref.error().Wrap("failed to get secret reference" + of_content);
  auto secrets = ReadSecret(api, *ref);
  if (!secrets.ok()) return secrets.error().Wrap("failed to get credentials" + of_content);
  return secrets;
}

template base::Result<CreateInputs> CreateInputsOf(const kube::VolumeSnapshotContent&,
                                                   const kube::Store<kube::VolumeSnapshotClass>&,
                                                   SnapshotApi&, bool);
template base::Result<CreateInputs> CreateInputsOf(
    const kube::VolumeGroupSnapshotContent&, const kube::Store<kube::VolumeGroupSnapshotClass>&,
    SnapshotApi&, bool);
template base::Result<Secrets> CheckCredentialsOf(const kube::VolumeSnapshotContent&,
                                                  const kube::Store<kube::VolumeSnapshotClass>&,
                                                  SnapshotApi&);
template base::Result<Secrets> CheckCredentialsOf(
    const kube::VolumeGroupSnapshotContent&, const kube::Store<kube::VolumeGroupSnapshotClass>&,
    SnapshotApi&);

}  // namespace snapshotter
