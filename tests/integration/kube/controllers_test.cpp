// The local control plane with a cluster's controllers (ControlPlaneOptions::
// controller_manager, ::scheduler): kube-controller-manager's PersistentVolume
// binder binds a claim, kube-scheduler places a Pod using it on a Node of
// tests/support/cluster_objects.h, each controller runs as its own identity,
// and Stop() ends them with the rest. What the attach-detach controller does
// with the attacher is tested in tests/integration/attacher/.
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <nlohmann/json.hpp>

#include "tests/support/cluster_objects.h"
#include "tests/support/control_plane.h"

// Its own namespace: test sources are compiled several to a translation unit.
namespace testsupport::controllers_it {

using namespace std::chrono_literals;

bool Gone(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

TEST(ControlPlaneControllersTest, BinderBindsSchedulerPlacesEachAsItsOwnIdentityStopEndsThem) {
  auto started = ControlPlane::Start({.controller_manager = true, .scheduler = true});
  ASSERT_TRUE(started.ok()) << "control plane failed to start: " << started.error().message;
  ControlPlane& plane = **started;
  ASSERT_NE(plane.controller_manager_pid(), 0);
  ASSERT_NE(plane.scheduler_pid(), 0);
  auto config = plane.AdminConfig();
  ASSERT_TRUE(config.ok()) << config.error().message;
  auto client = kube::Client::Create(*config);
  ASSERT_TRUE(client.ok()) << client.error().message;
  kube::Client& admin = **client;

  ASSERT_TRUE(CreateNode(admin, {.name = "worker-1", .labels = {{"zone", "a"}}}).ok());
  auto bound = CreateBoundClaim(admin, {.claim = "data",
                                        .volume = "pv-data",
                                        .driver = "cp-controllers.csi.example.com",
                                        .handle = "vol-1"});
  ASSERT_TRUE(bound.ok()) << bound.error().message;
  ASSERT_TRUE(CreatePod(admin, {.name = "app", .claims = {"data"}}).ok());
  auto scheduled = Eventually(60s, [&]() -> base::Status {
    auto body = admin.Request("GET", "/api/v1/namespaces/default/pods/app");
    if (!body.ok()) return body.error();
    const std::string node =
        nlohmann::json::parse(*body).value(nlohmann::json::json_pointer("/spec/nodeName"), "");
    if (node != "worker-1") return base::Error("spec.nodeName is '" + node + "'");
    return {};
  });
  EXPECT_TRUE(scheduled.ok()) << "kube-scheduler never placed the Pod: "
                              << scheduled.error().message;

  // --use-service-account-credentials: the root identity made each
  // controller's own ServiceAccount, which only system:kube-controller-manager
  // may do.
  for (const char* account : {"persistent-volume-binder", "attachdetach-controller"}) {
    EXPECT_TRUE(admin
                    .Request("GET", std::string("/api/v1/namespaces/kube-system/serviceaccounts/") +
                                        account)
                    .ok())
        << account;
  }

  const pid_t controller_manager = plane.controller_manager_pid();
  const pid_t scheduler = plane.scheduler_pid();
  const pid_t apiserver = plane.apiserver_pid();
  plane.Stop();
  EXPECT_TRUE(Gone(controller_manager));
  EXPECT_TRUE(Gone(scheduler));
  EXPECT_TRUE(Gone(apiserver));
}

}  // namespace testsupport::controllers_it
