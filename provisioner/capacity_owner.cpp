#include "provisioner/capacity_owner.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "base/strconv.h"
#include "kube/api/codec.h"
#include "kube/api/resource.h"

namespace provisioner {
namespace {

// Any object, read for its metadata only ("object" in decode errors).
struct MetadataOnly {
  static constexpr kube::KindFacts kFacts{
      .api_version = "", .kind = "object", .plural = "", .scope = kube::Scope::kNamespaced};
  kube::ObjectMeta metadata;
  static constexpr auto Fields() {
    return std::tuple{kube::Field("metadata", &MetadataOnly::metadata)};
  }
};

// "/api/v1/namespaces/<ns>/pods/<name>" and the like.
std::string ObjectPath(const std::string& api_version, const std::string& kind,
                       const std::string& ns, const std::string& name) {
  std::string plural = kind;
  std::transform(plural.begin(), plural.end(), plural.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  plural += 's';
  std::string path = api_version.find('/') == std::string::npos ? "/api/" : "/apis/";
  path += api_version + "/namespaces/";
  kube::AppendEscapedPathSegment(path, ns);
  path += "/" + plural + "/";
  kube::AppendEscapedPathSegment(path, name);
  return path;
}

}  // namespace

base::Result<kube::OwnerReference> LookUpCapacityOwner(kube::Client& client, const std::string& ns,
                                                       const std::string& pod_name, int level) {
  kube::OwnerReference current{
      .api_version = "v1", .kind = "Pod", .name = pod_name, .uid = {}, .controller = true};
  for (;; --level) {
    base::Result<std::string> body =
        client.Request("GET", ObjectPath(current.api_version, current.kind, ns, current.name));
    if (!body.ok()) return body.error().Wrap("get object");
    base::Result<MetadataOnly> object = kube::DecodeObject<MetadataOnly>(*body);
    if (!object.ok()) return object.error().Wrap("get object");
    if (level == 0) {
      current.uid = object->metadata.uid;
      return current;
    }
    const auto& owners = object->metadata.owner_references;
    auto controlling =
        std::find_if(owners.begin(), owners.end(),
                     [](const kube::OwnerReference& o) { return o.controller.value_or(false); });
    if (controlling == owners.end()) {
      return base::Error(current.api_version + "/" + current.kind + " " +
                         base::GoQuote(current.name) + " in namespace " + base::GoQuote(ns) +
                         " has no controlling owner, cannot unwind the ownership further");
    }
    kube::OwnerReference next = *controlling;
    next.controller = true;
    next.block_owner_deletion.reset();
    if (level == 1) return next;
    current = std::move(next);
  }
}

}  // namespace provisioner
