// ControlPlane: a real etcd + kube-apiserver on 127.0.0.1 for tests,
// benchmarks and the demo (tools/local-control-plane wraps it for scripts).
//
// Start returns a ready cluster: TLS with a CA of our own (clients verify it,
// nothing skips verification), RBAC authorization, the attacher's RBAC from
// deploy/kubernetes/csi-attacher/rbac.yaml applied and in effect, and two kubeconfigs: the
// admin's (static token, group system:masters) and the attacher's (a real
// ServiceAccount token for default/csi-attacher from the TokenRequest API).
// CustomResourceDefinitions come only on request (ControlPlaneOptions::crd_dirs
// or InstallCrds), other components' identities from AddServiceAccount, and
// kubeconfigs for other ServiceAccounts from ServiceAccountKubeconfig.
// On request (ControlPlaneOptions::controller_manager, ::scheduler) the
// controllers a real cluster runs beside the API server come too (see
// ControllerManagerOptions below); without them nothing but the API server
// acts on objects, and a start costs only etcd and kube-apiserver.
// A failure says which peer failed, after how long, with the tail of its log.
// Every process dies with the thread that started it (see Process), and
// Stop() or the destructor ends them: controllers first, then the apiserver,
// then etcd.
//
// Not thread-safe: one owner drives it; the clients built from its configs
// are independent and may be used from any thread.
#pragma once

#include <sys/types.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "kube/client/client.h"
#include "kube/client/config.h"
#include "tests/support/credentials.h"
#include "tests/support/etcd_server.h"
#include "tests/support/process.h"

namespace testsupport {

struct ControlPlaneOptions {
  // Empty: a fresh $TMPDIR/control-plane-XXXXXX, removed by Stop() unless
  // keep_work_dir. A given directory is created if missing and always kept.
  std::string work_dir = {};
  bool keep_work_dir = false;
  // Empty: $ETCD_BIN / $KUBE_APISERVER_BIN, else tools/peers/build.sh.
  std::string etcd_bin = {};
  std::string apiserver_bin = {};
  // Empty: deploy/kubernetes/csi-attacher/rbac.yaml of this source tree.
  std::string rbac_manifest = {};
  std::vector<std::string> extra_apiserver_args = {};
  // Directories of CRD YAMLs (e.g. $SNAPSHOT_CRDS_DIR) that Start installs,
  // each CRD Established before it returns.
  std::vector<std::string> crd_dirs = {};

  // kube-controller-manager with exactly two controllers: the PersistentVolume
  // binder (binds claims to volumes, annotates them) and the attach-detach
  // controller (creates and deletes VolumeAttachments for Pods on Nodes
  // annotated volumes.kubernetes.io/controller-managed-attach-detach, and
  // reports them in the Node's status.volumesAttached). No node lifecycle
  // controller, so Nodes without a kubelet are never tainted or evicted.
  // It runs as user system:kube-controller-manager (a static token, bound by
  // the API server's bootstrap RBAC) and each controller as its own
  // kube-system ServiceAccount (--use-service-account-credentials), as in a
  // kubeadm cluster; leader election is off; flex volumes are looked for in
  // an empty folder of the work directory. Start returns once its /healthz
  // lists both controllers (each adds its check when it is built, just before
  // it starts; each then waits for its informers before acting).
  bool controller_manager = false;
  // kube-scheduler as user system:kube-scheduler, leader election off; Start
  // returns once its /readyz answers ok (its informers have synced).
  bool scheduler = false;
  // Empty: $KUBE_CONTROLLER_MANAGER_BIN / $KUBE_SCHEDULER_BIN, else
  // tools/peers/build.sh controller-manager / scheduler.
  std::string controller_manager_bin = {};
  std::string scheduler_bin = {};
  std::vector<std::string> extra_controller_manager_args = {};
};

// A component's identity (see ControlPlane::AddServiceAccount): the RBAC
// manifest that creates ServiceAccount ns/name with its roles and bindings,
// and API paths a GET of which succeeds as that account once the manifest's
// rules are in effect (one per binding, each a rule of the bound role).
struct ServiceAccountIdentity {
  std::string rbac_manifest;
  std::string ns;
  std::string name;
  std::vector<std::string> probe_paths;
};

class ControlPlane {
 public:
  static base::Result<std::unique_ptr<ControlPlane>> Start(ControlPlaneOptions options = {});

  ~ControlPlane() { Stop(); }
  ControlPlane(const ControlPlane&) = delete;
  ControlPlane& operator=(const ControlPlane&) = delete;

  // Ends every process (controllers, apiserver, etcd) and removes an owned
  // work directory. Idempotent.
  void Stop();

  // For restart tests: etcd keeps running, so the data survives. Start uses
  // the same port, certificates and tokens and waits for /readyz.
  base::Status StopApiServer();
  base::Status StartApiServer();
  // SIGKILL, as a node failure or the OOM killer ends it: requests in flight
  // are cut off with their outcome unknown to the client.
  void KillApiServer();

  // Compacts etcd at its current revision (idempotent). The apiserver's watch
  // cache keeps answering for older resourceVersions from memory, so for 410
  // Gone on them follow with StopApiServer() + StartApiServer(): after that,
  // watches, exact lists and continue tokens from before all get 410
  // (measured with kube-apiserver 1.36.3; without the restart none did).
  base::Status CompactEtcd() { return etcd_->Compact(); }

  // Creates the CRDs of every *.yaml in `dir` and waits until each is
  // Established (custom_resources.h).
  base::Status InstallCrds(const std::string& dir);

  // Waits for namespace ns to exist, applies the identity's RBAC manifest and
  // returns ServiceAccountKubeconfig(ns, name) once every probe path answers
  // to it (RBAC objects reach the authorizer a moment after they are created).
  base::Result<std::string> AddServiceAccount(const ServiceAccountIdentity& identity);

  // A kubeconfig at <work_dir>/<ns>-<name>.kubeconfig for ServiceAccount
  // ns/name (which must exist), with a day-long token from the TokenRequest
  // API; returns its path.
  base::Result<std::string> ServiceAccountKubeconfig(const std::string& ns,
                                                     const std::string& name);

  const std::string& server_url() const { return server_url_; }
  const std::string& admin_kubeconfig() const { return admin_kubeconfig_; }
  const std::string& attacher_kubeconfig() const { return attacher_kubeconfig_; }
  const std::string& ca_file() const { return ca_file_; }
  const std::string& work_dir() const { return work_dir_; }
  // The peers' process ids (they stay valid, but dead, after Stop()); 0 for
  // a controller not asked for.
  pid_t etcd_pid() const { return etcd_->pid(); }
  pid_t apiserver_pid() const { return apiserver_ ? apiserver_->pid() : 0; }
  pid_t controller_manager_pid() const {
    return controller_manager_ ? controller_manager_->pid() : 0;
  }
  pid_t scheduler_pid() const { return scheduler_ ? scheduler_->pid() : 0; }
  // Their logs, in the work directory beside etcd.log and apiserver.log
  // (named even when the controller was not asked for).
  std::string controller_manager_log() const { return work_dir_ + "/kube-controller-manager.log"; }
  std::string scheduler_log() const { return work_dir_ + "/kube-scheduler.log"; }

  base::Result<kube::RestConfig> AdminConfig() const {
    return kube::LoadKubeconfig(admin_kubeconfig_);
  }
  base::Result<kube::RestConfig> AttacherConfig() const {
    return kube::LoadKubeconfig(attacher_kubeconfig_);
  }

 private:
  explicit ControlPlane(ControlPlaneOptions options) : options_(std::move(options)) {}

  // A controller process of the cluster (kube-controller-manager,
  // kube-scheduler): its identity, the flags of its own, and the health
  // path that says it is ready (`ready` checks that path's body).
  struct ComponentLaunch {
    std::string name;  // names its log, kubeconfig and serving certificate
    std::string binary;
    std::string user;  // its static token's user
    std::vector<std::string> args;
    std::string ready_path;
    std::function<base::Status(const std::string& body)> ready;
  };

  base::Status Setup();
  base::Status WriteCredentials();
  base::Status StartApiServerOnFreePort();
  base::Status LaunchApiServer();
  base::Status StartControllers();
  // Serves on a free loopback port with a certificate of our CA, retried
  // on another port when it loses its port to someone else.
  base::Result<std::unique_ptr<Process>> LaunchComponent(const ComponentLaunch& launch);

  ControlPlaneOptions options_;
  std::string work_dir_;
  bool owns_work_dir_ = false;
  int apiserver_port_ = 0;
  std::string server_url_;
  std::string ca_file_;
  std::string admin_kubeconfig_;
  std::string attacher_kubeconfig_;
  std::string admin_token_;
  // The controllers' static tokens (tokens.csv), by user name.
  std::map<std::string, std::string> component_tokens_;
  CertifiedKey ca_;                          // signs the controllers' serving certificates
  std::vector<std::string> apiserver_argv_;  // all but --secure-port

  std::unique_ptr<EtcdServer> etcd_;
  std::unique_ptr<Process> apiserver_;
  std::unique_ptr<Process> controller_manager_;
  std::unique_ptr<Process> scheduler_;
  std::unique_ptr<kube::Client> admin_;  // readiness polls and RBAC setup
  bool stopped_ = false;
};

}  // namespace testsupport
