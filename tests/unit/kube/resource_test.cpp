#include "kube/api/resource.h"

#include <gtest/gtest.h>

#include "kube/api/coordination/v1/lease.h"
#include "kube/api/core/v1/event.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/secret.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace kube {
namespace {

TEST(ResourcePath, ClusterScopedKindsIgnoreNamespace) {
  EXPECT_EQ(ResourcePath<VolumeAttachment>("ignored", "csi-1"),
            "/apis/storage.k8s.io/v1/volumeattachments/csi-1");
  EXPECT_EQ(ResourcePath<PersistentVolume>("", "pv-1"), "/api/v1/persistentvolumes/pv-1");
  EXPECT_EQ(ResourcePath<CSINode>("", ""), "/apis/storage.k8s.io/v1/csinodes");
}

TEST(ResourcePath, NamespacedKindsIncludeNamespace) {
  EXPECT_EQ(ResourcePath<Secret>("kube-system", "publish"),
            "/api/v1/namespaces/kube-system/secrets/publish");
  EXPECT_EQ(ResourcePath<Lease>("kube-system", "l"),
            "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l");
  EXPECT_EQ(ResourcePath<Event>("default"), "/api/v1/namespaces/default/events");
}

TEST(ResourcePath, EmptyNamespaceOfNamespacedKindMeansAllNamespaces) {
  EXPECT_EQ(ResourcePath<Secret>(""), "/api/v1/secrets");
}

TEST(ResourcePath, EscapesNamesSoTheyStayOneSegment) {
  EXPECT_EQ(ResourcePath<Secret>("a b", "x/../y?z#%"),
            "/api/v1/namespaces/a%20b/secrets/x%2F..%2Fy%3Fz%23%25");
  EXPECT_EQ(ResourcePath<PersistentVolume>("", "pvc-1.a_b~c"),
            "/api/v1/persistentvolumes/pvc-1.a_b~c");
}

TEST(ResourceTraits, NameKindsAndVersions) {
  EXPECT_EQ(ResourceTraits<VolumeAttachment>::kKind, "VolumeAttachment");
  EXPECT_EQ(ResourceTraits<VolumeAttachment>::kApiVersion, "storage.k8s.io/v1");
  EXPECT_FALSE(ResourceTraits<VolumeAttachment>::kNamespaced);
  EXPECT_EQ(ResourceTraits<Lease>::kApiVersion, "coordination.k8s.io/v1");
  EXPECT_TRUE(ResourceTraits<Lease>::kNamespaced);
  EXPECT_EQ(ResourceTraits<Event>::kPlural, "events");
}

}  // namespace
}  // namespace kube
