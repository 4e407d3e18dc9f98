// One local control plane (etcd + kube-apiserver, real TLS, RBAC) per test
// suite, with an admin client and a client for the attacher's RBAC-limited
// identity. A peer that cannot be built or started fails the suite loudly.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "kube/client/client.h"
#include "tests/support/control_plane.h"

namespace kube {

class ClusterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { StartCluster({}); }
  // For a suite that needs a differently configured cluster (its own
  // SetUpTestSuite calls this).
  static void StartCluster(testsupport::ControlPlaneOptions options) {
    auto plane = testsupport::ControlPlane::Start(std::move(options));
    ASSERT_TRUE(plane.ok()) << "control plane failed to start: " << plane.error().message;
    plane_ = std::move(plane).value().release();
    admin_ = MakeClient(plane_->AdminConfig()).release();
    attacher_ = MakeClient(plane_->AttacherConfig()).release();
  }
  static void TearDownTestSuite() {
    delete attacher_;
    delete admin_;
    delete plane_;
    attacher_ = nullptr;
    admin_ = nullptr;
    plane_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(plane_, nullptr) << "no control plane"; }

  static std::unique_ptr<Client> MakeClient(base::Result<RestConfig> config) {
    EXPECT_TRUE(config.ok()) << config.error().message;
    if (!config.ok()) return nullptr;
    config->qps = 1000;
    config->burst = 1000;
    auto client = Client::Create(*config);
    EXPECT_TRUE(client.ok()) << client.error().message;
    return client.ok() ? std::move(client).value() : nullptr;
  }

  static inline testsupport::ControlPlane* plane_ = nullptr;
  static inline Client* admin_ = nullptr;
  static inline Client* attacher_ = nullptr;
};

}  // namespace kube
