#include "tests/support/control_plane.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/ascii.h"
#include "base/file.h"
#include "base/log.h"
#include "tests/support/credentials.h"
#include "tests/support/custom_resources.h"
#include "tests/support/files.h"
#include "tests/support/free_port.h"
#include "tests/support/kubeconfig_file.h"
#include "tests/support/manifest.h"
#include "tests/support/peer_binaries.h"
#include "tests/support/readiness.h"
#include "tests/support/source_dir.h"

namespace testsupport {
namespace {

namespace fs = std::filesystem;
using std::chrono::seconds;

constexpr int kApiServerStartAttempts = 3;
constexpr seconds kApiServerReadyTimeout{90};
// kube-controller-manager took 0.3 s to list its controllers and
// kube-scheduler 0.5 s to be ready on this 2-core machine; the rest is for a
// machine busy with builds.
constexpr seconds kComponentReadyTimeout{90};
constexpr seconds kSetupStepTimeout{30};
constexpr char kApiServer[] = "kube-apiserver";
constexpr int kServiceAccountTokenSeconds = 86400;

// The users the API server's bootstrap RBAC binds the system:kube-controller-manager
// and system:kube-scheduler roles (and system:volume-scheduler) to.
constexpr char kControllerManagerUser[] = "system:kube-controller-manager";
constexpr char kSchedulerUser[] = "system:kube-scheduler";
// kube-controller-manager's names for them (`--controllers`, and the
// /healthz check of each).
constexpr const char* kControllers[] = {"persistentvolume-binder-controller",
                                        "persistentvolume-attach-detach-controller"};

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A client for setup and polling: the limiter must never slow the launcher,
// and a hung request must not eat a whole readiness timeout.
base::Result<std::unique_ptr<kube::Client>> SetupClient(base::Result<kube::RestConfig> config) {
  if (!config.ok()) return config.error();
  config->qps = 1000;
  config->burst = 1000;
  config->user_agent = "local-control-plane";
  return kube::Client::Create(*config, base::Clock::Real(), {.request_timeout = seconds(10)});
}

base::Status Get(kube::Client& client, const std::string& path) {
  auto body = client.Request("GET", path);
  if (!body.ok()) return body.error().Wrap("GET " + path);
  return {};
}

// Every flag but --secure-port, which may change between start attempts.
std::vector<std::string> ApiServerArgs(const std::string& binary, const std::string& etcd_url,
                                       const std::string& work_dir,
                                       const std::vector<std::string>& extra) {
  const std::string pki = work_dir + "/pki";
  std::vector<std::string> args = {
      binary,
      "--etcd-servers=" + etcd_url,
      "--bind-address=127.0.0.1",
      // Without it a loopback-bound apiserver looks for a default route.
      "--advertise-address=127.0.0.1",
      "--cert-dir=" + work_dir + "/apiserver-certs",
      "--tls-cert-file=" + pki + "/apiserver.crt",
      "--tls-private-key-file=" + pki + "/apiserver.key",
      "--service-cluster-ip-range=10.0.0.0/24",
      "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
      "--service-account-key-file=" + pki + "/sa.pub",
      "--service-account-signing-key-file=" + pki + "/sa.key",
      "--token-auth-file=" + work_dir + "/tokens.csv",
      "--authorization-mode=RBAC",
      // ServiceAccount admission concerns pods only; StorageObjectInUseProtection
      // adds a PV finalizer that only kube-controller-manager (absent) removes.
      "--disable-admission-plugins=ServiceAccount,StorageObjectInUseProtection",
      // Keeps benchmark throughput free of priority-and-fairness queuing.
      "--enable-priority-and-fairness=false",
  };
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// kube-controller-manager's /healthz?verbose once it lists every controller
// asked for (each adds its check when built, just before it starts).
base::Status ControllersStarted(const std::string& body) {
  for (const char* controller : kControllers) {
    if (body.find(fmt::format("[+]{} ok", controller)) == std::string::npos) {
      return base::Error(fmt::format("/healthz does not list {} as ok yet", controller));
    }
  }
  return {};
}

base::Status AnswersOk(const std::string& body) {
  if (base::TrimSpace(body) != "ok") return base::Error("answered: " + body);
  return {};
}

// deploy/kubernetes/csi-attacher/rbac.yaml (or `manifest`) for default/csi-attacher.
ServiceAccountIdentity AttacherIdentity(const std::string& manifest) {
  return {.rbac_manifest =
              manifest.empty() ? SourcePath("deploy/kubernetes/csi-attacher/rbac.yaml") : manifest,
          .ns = "default",
          .name = "csi-attacher",
          // One rule per binding: the ClusterRoleBinding's and the RoleBinding's.
          .probe_paths = {"/apis/storage.k8s.io/v1/volumeattachments?limit=1",
                          "/apis/coordination.k8s.io/v1/namespaces/default/leases?limit=1"}};
}

}  // namespace

base::Result<std::unique_ptr<ControlPlane>> ControlPlane::Start(ControlPlaneOptions options) {
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<ControlPlane> plane(new ControlPlane(std::move(options)));
  if (auto status = plane->Setup(); !status.ok()) {
    // Logs the error points at stay for a post-mortem (apiserver.log comes
    // only after etcd.log).
    const std::string& dir = plane->work_dir_;
    bool keep =
        !dir.empty() && (fs::exists(dir + "/peers-build.log") || fs::exists(dir + "/etcd.log"));
    if (keep) plane->owns_work_dir_ = false;
    plane->Stop();
    std::string where = keep ? " (work directory kept: " + dir + ")" : "";
    return status.error().Wrap("start local control plane" + where);
  }
  LOG_INFO("Local control plane ready")
      .With("server", plane->server_url_)
      .With("workDir", plane->work_dir_)
      .With("seconds", SecondsSince(start));
  return plane;
}

base::Status ControlPlane::Setup() {
  if (options_.work_dir.empty()) {
    auto dir = MakeTempDir("control-plane-");
    if (!dir.ok()) return dir.error();
    work_dir_ = *dir;
    owns_work_dir_ = !options_.keep_work_dir;
  } else {
    std::error_code error;
    work_dir_ = fs::absolute(options_.work_dir, error).string();
    fs::create_directories(work_dir_, error);
    if (error) return base::Error("create work directory " + work_dir_ + ": " + error.message());
  }

  auto binaries =
      FindPeerBinaries({options_.etcd_bin, options_.apiserver_bin}, work_dir_ + "/peers-build.log");
  if (!binaries.ok()) return binaries.error();
  if (auto status = WriteCredentials(); !status.ok()) return status;

  auto step = std::chrono::steady_clock::now();
  auto etcd = EtcdServer::Start(binaries->etcd, work_dir_ + "/etcd-data", work_dir_ + "/etcd.log");
  if (!etcd.ok()) return etcd.error();
  etcd_ = std::move(*etcd);
  LOG_INFO("Started etcd").With("url", etcd_->client_url()).With("seconds", SecondsSince(step));

  apiserver_argv_ = ApiServerArgs(binaries->apiserver, etcd_->client_url(), work_dir_,
                                  options_.extra_apiserver_args);
  step = std::chrono::steady_clock::now();
  if (auto status = StartApiServerOnFreePort(); !status.ok()) return status;
  LOG_INFO("Started kube-apiserver").With("url", server_url_).With("seconds", SecondsSince(step));

  auto attacher = AddServiceAccount(AttacherIdentity(options_.rbac_manifest));
  if (!attacher.ok()) return attacher.error();
  attacher_kubeconfig_ = *attacher;
  for (const std::string& dir : options_.crd_dirs) {
    if (auto status = InstallCrds(dir); !status.ok()) return status;
  }
  return StartControllers();
}

base::Status ControlPlane::StartControllers() {
  const std::string peers_log = work_dir_ + "/peers-build.log";
  auto find = [&](const std::string& given, std::string_view variable,
                  std::string_view peer) -> base::Result<std::string> {
    if (!given.empty()) return given;
    return FindPeer(variable, peer, peers_log);
  };
  if (options_.controller_manager) {
    auto binary =
        find(options_.controller_manager_bin, "KUBE_CONTROLLER_MANAGER_BIN", "controller-manager");
    if (!binary.ok()) return binary.error();
    const std::string flex_dir = work_dir_ + "/flexvolume";
    std::error_code error;
    fs::create_directories(flex_dir, error);
    if (error) return base::Error("create " + flex_dir + ": " + error.message());
    std::vector<std::string> args = {
        fmt::format("--controllers={}", fmt::join(kControllers, ",")),
        // Each controller as its own ServiceAccount with its bootstrap role,
        // as kubeadm runs it, so each is held to its own RBAC (the root
        // identity's role mostly reads, and mints those accounts' tokens).
        "--use-service-account-credentials=true",
        // The default /usr/libexec/kubernetes/... is the host's: never probe it.
        "--flex-volume-plugin-dir=" + flex_dir,
    };
    args.insert(args.end(), options_.extra_controller_manager_args.begin(),
                options_.extra_controller_manager_args.end());
    auto step = std::chrono::steady_clock::now();
    auto process = LaunchComponent({.name = "kube-controller-manager",
                                    .binary = *binary,
                                    .user = kControllerManagerUser,
                                    .args = std::move(args),
                                    .ready_path = "/healthz?verbose",
                                    .ready = ControllersStarted});
    if (!process.ok()) return process.error();
    controller_manager_ = std::move(*process);
    LOG_INFO("Started kube-controller-manager").With("seconds", SecondsSince(step));
  }
  if (options_.scheduler) {
    auto binary = find(options_.scheduler_bin, "KUBE_SCHEDULER_BIN", "scheduler");
    if (!binary.ok()) return binary.error();
    auto step = std::chrono::steady_clock::now();
    auto process = LaunchComponent({.name = "kube-scheduler",
                                    .binary = *binary,
                                    .user = kSchedulerUser,
                                    .args = {},
                                    .ready_path = "/readyz",
                                    .ready = AnswersOk});
    if (!process.ok()) return process.error();
    scheduler_ = std::move(*process);
    LOG_INFO("Started kube-scheduler").With("seconds", SecondsSince(step));
  }
  return {};
}

base::Result<std::unique_ptr<Process>> ControlPlane::LaunchComponent(
    const ComponentLaunch& launch) {
  const std::string pki = work_dir_ + "/pki";
  const std::string kubeconfig = work_dir_ + "/" + launch.name + ".kubeconfig";
  if (auto status = WriteKubeconfig(kubeconfig, {.server = server_url_,
                                                 .ca_file = ca_file_,
                                                 .user = launch.user,
                                                 .token = component_tokens_.at(launch.user)});
      !status.ok()) {
    return status.error();
  }
  // Its own serving certificate, so the readiness probe verifies TLS as
  // every other client of this control plane does.
  auto serving = IssueServingCertificate(ca_, launch.name, {"localhost"}, {"127.0.0.1"});
  if (!serving.ok()) return serving.error();
  const std::string cert = pki + "/" + launch.name + ".crt";
  const std::string key = pki + "/" + launch.name + ".key";
  for (const auto& [path, contents] :
       {std::pair{cert, serving->cert_pem}, std::pair{key, serving->key_pem}}) {
    if (auto status = WriteFile(path, contents); !status.ok()) return status.error();
  }
  kube::RestConfig probe_config;
  probe_config.ca_pem = ca_.cert_pem;  // and no token: the health paths allow anyone

  base::Status last;
  for (int attempt = 1; attempt <= kApiServerStartAttempts; ++attempt) {
    auto port = PickFreeLoopbackPort();
    if (!port.ok()) return port.error();
    std::vector<std::string> argv = {
        launch.binary,
        "--kubeconfig=" + kubeconfig,
        "--bind-address=127.0.0.1",
        fmt::format("--secure-port={}", *port),
        "--tls-cert-file=" + cert,
        "--tls-private-key-file=" + key,
        // One instance: nobody to elect, and no Lease to wait for.
        "--leader-elect=false",
        "--v=2",
    };
    argv.insert(argv.end(), launch.args.begin(), launch.args.end());
    auto process =
        Process::Spawn({.argv = argv, .log_file = work_dir_ + "/" + launch.name + ".log"});
    if (!process.ok()) return process.error().Wrap("start " + launch.name);
    probe_config.server = fmt::format("https://127.0.0.1:{}", *port);
    auto probe = SetupClient(probe_config);
    if (!probe.ok()) return probe.error().Wrap(launch.name + " health client");
    last = WaitFor(launch.name, "GET " + launch.ready_path + " to pass", **process,
                   kComponentReadyTimeout, [&]() -> base::Status {
                     auto body = (*probe)->Request("GET", launch.ready_path, {}, {}, "text/plain");
                     if (!body.ok()) return body.error().Wrap("GET " + launch.ready_path);
                     return launch.ready(*body);
                   });
    if (last.ok()) return std::move(*process);
    if (!ExitedOnPortConflict(**process)) return last.error();
    LOG_WARNING("A controller lost its port to another process, retrying on another port")
        .With("controller", launch.name)
        .With("attempt", attempt);
  }
  return last.error();
}

base::Status ControlPlane::WriteCredentials() {
  const std::string pki = work_dir_ + "/pki";
  std::error_code error;
  fs::create_directories(pki, error);
  if (error) return base::Error("create " + pki + ": " + error.message());

  auto ca = GenerateCertificateAuthority("local-control-plane-ca");
  if (!ca.ok()) return ca.error();
  auto serving = IssueServingCertificate(*ca, "kube-apiserver", {"localhost"}, {"127.0.0.1"});
  if (!serving.ok()) return serving.error();
  auto service_account_key = GenerateKeyPair();
  if (!service_account_key.ok()) return service_account_key.error();
  auto admin_token = RandomToken();
  if (!admin_token.ok()) return admin_token.error();
  // Written whether or not the controllers are asked for: the API server
  // reads tokens.csv only when it starts.
  for (const char* user : {kControllerManagerUser, kSchedulerUser}) {
    auto token = RandomToken();
    if (!token.ok()) return token.error();
    component_tokens_[user] = *token;
  }

  ca_file_ = pki + "/ca.crt";
  admin_kubeconfig_ = work_dir_ + "/admin.kubeconfig";
  // Columns: token,user,uid,"groups". system:masters bypasses RBAC.
  std::string tokens = *admin_token + ",admin,admin-uid,\"system:masters\"\n";
  for (const auto& [user, token] : component_tokens_) {
    tokens += fmt::format("{},{},{}-uid\n", token, user, user);
  }
  for (const auto& [path, contents] : std::vector<std::pair<std::string, std::string>>{
           {ca_file_, ca->cert_pem},
           {pki + "/ca.key", ca->key_pem},
           {pki + "/apiserver.crt", serving->cert_pem},
           {pki + "/apiserver.key", serving->key_pem},
           {pki + "/sa.key", service_account_key->private_key_pem},
           {pki + "/sa.pub", service_account_key->public_key_pem},
           {work_dir_ + "/tokens.csv", tokens},
       }) {
    if (auto status = WriteFile(path, contents); !status.ok()) return status;
  }
  // The admin kubeconfig needs the port; keep the token until it is written.
  admin_token_ = *admin_token;
  ca_ = std::move(*ca);
  return {};
}

base::Status ControlPlane::StartApiServerOnFreePort() {
  base::Status last;
  for (int attempt = 1; attempt <= kApiServerStartAttempts; ++attempt) {
    auto port = PickFreeLoopbackPort();
    if (!port.ok()) return port.error();
    apiserver_port_ = *port;
    server_url_ = fmt::format("https://127.0.0.1:{}", apiserver_port_);
    if (auto status = WriteKubeconfig(
            admin_kubeconfig_,
            {.server = server_url_, .ca_file = ca_file_, .user = "admin", .token = admin_token_});
        !status.ok()) {
      return status;
    }
    auto admin = SetupClient(AdminConfig());
    if (!admin.ok()) return admin.error().Wrap("admin client");
    admin_ = std::move(*admin);

    last = LaunchApiServer();
    if (last.ok() || !apiserver_ || !ExitedOnPortConflict(*apiserver_)) return last;
    LOG_WARNING("kube-apiserver lost its port to another process, retrying on another port")
        .With("attempt", attempt);
  }
  return last;
}

base::Status ControlPlane::LaunchApiServer() {
  std::vector<std::string> argv = apiserver_argv_;
  argv.push_back(fmt::format("--secure-port={}", apiserver_port_));
  apiserver_.reset();
  auto process = Process::Spawn({.argv = argv, .log_file = work_dir_ + "/apiserver.log"});
  if (!process.ok()) return process.error().Wrap("start kube-apiserver");
  apiserver_ = std::move(*process);
  return WaitFor(kApiServer, "GET /readyz to answer ok", *apiserver_, kApiServerReadyTimeout,
                 [&]() -> base::Status {
                   auto body = admin_->Request("GET", "/readyz");
                   if (!body.ok()) return body.error().Wrap("GET /readyz");
                   if (base::TrimSpace(*body) != "ok") return base::Error("/readyz: " + *body);
                   return {};
                 });
}

base::Result<std::string> ControlPlane::AddServiceAccount(const ServiceAccountIdentity& identity) {
  const std::string account = identity.ns + "/" + identity.name;
  // The apiserver creates its namespaces shortly after /readyz passes.
  if (auto status = WaitFor(kApiServer, "namespace " + identity.ns + " to exist", *apiserver_,
                            kSetupStepTimeout,
                            [&] { return Get(*admin_, "/api/v1/namespaces/" + identity.ns); });
      !status.ok()) {
    return status.error();
  }
  auto manifest = base::ReadFile(identity.rbac_manifest);
  if (!manifest.ok()) return manifest.error().Wrap("RBAC manifest");
  if (auto status = ApplyManifest(*admin_, *manifest, identity.rbac_manifest); !status.ok()) {
    return status.error();
  }
  auto kubeconfig = ServiceAccountKubeconfig(identity.ns, identity.name);
  if (!kubeconfig.ok()) return kubeconfig.error();
  auto as_account = SetupClient(kube::LoadKubeconfig(*kubeconfig));
  if (!as_account.ok()) return as_account.error().Wrap(account + " client");
  if (auto status = WaitFor(kApiServer, "the RBAC rules of " + account + " to take effect",
                            *apiserver_, kSetupStepTimeout,
                            [&]() -> base::Status {
                              for (const std::string& path : identity.probe_paths) {
                                if (auto s = Get(**as_account, path); !s.ok()) return s;
                              }
                              return {};
                            });
      !status.ok()) {
    return status.error();
  }
  return kubeconfig;
}

base::Result<std::string> ControlPlane::ServiceAccountKubeconfig(const std::string& ns,
                                                                 const std::string& name) {
  const std::string account = ns + "/" + name;
  const nlohmann::json request = {
      {"apiVersion", "authentication.k8s.io/v1"},
      {"kind", "TokenRequest"},
      {"spec", {{"expirationSeconds", kServiceAccountTokenSeconds}}},
  };
  const std::string path = fmt::format("/api/v1/namespaces/{}/serviceaccounts/{}/token", ns, name);
  auto body = admin_->Request("POST", path, request.dump(), "application/json");
  if (!body.ok()) return body.error().Wrap("TokenRequest for " + account);
  auto answer = nlohmann::json::parse(*body, nullptr, false);
  auto token = answer.is_object() ? answer.value(nlohmann::json::json_pointer("/status/token"), "")
                                  : std::string();
  if (token.empty()) return base::Error("TokenRequest for " + account + ": no status.token");
  const std::string kubeconfig = fmt::format("{}/{}-{}.kubeconfig", work_dir_, ns, name);
  if (auto status = WriteKubeconfig(
          kubeconfig, {.server = server_url_, .ca_file = ca_file_, .user = name, .token = token});
      !status.ok()) {
    return status.error();
  }
  return kubeconfig;
}

base::Status ControlPlane::InstallCrds(const std::string& dir) {
  auto start = std::chrono::steady_clock::now();
  auto names = ApplyCustomResourceDefinitions(*admin_, dir);
  if (!names.ok()) return names.error().Wrap("install CRDs");
  for (const std::string& name : *names) {
    if (auto status = WaitFor(kApiServer, "CRD " + name + " to be Established", *apiserver_,
                              kSetupStepTimeout, [&] { return CheckEstablished(*admin_, name); });
        !status.ok()) {
      return status;
    }
  }
  LOG_INFO("Installed CRDs")
      .With("dir", dir)
      .With("count", names->size())
      .With("seconds", SecondsSince(start));
  return {};
}

base::Status ControlPlane::StopApiServer() {
  if (apiserver_) apiserver_->Stop();
  return {};
}

void ControlPlane::KillApiServer() {
  if (apiserver_) apiserver_->Kill();
}

base::Status ControlPlane::StartApiServer() {
  if (apiserver_ && apiserver_->IsRunning()) {
    return base::Error("StartApiServer: kube-apiserver is already running");
  }
  auto start = std::chrono::steady_clock::now();
  if (auto status = LaunchApiServer(); !status.ok()) return status;
  LOG_INFO("Restarted kube-apiserver")
      .With("url", server_url_)
      .With("seconds", SecondsSince(start));
  return {};
}

void ControlPlane::Stop() {
  if (stopped_) return;
  stopped_ = true;
  admin_.reset();
  // Controllers first, so none logs the API server's going as a failure.
  if (scheduler_) scheduler_->Stop();
  if (controller_manager_) controller_manager_->Stop();
  if (apiserver_) apiserver_->Stop();
  if (etcd_) etcd_->Stop();
  if (owns_work_dir_) {
    std::error_code ignored;
    fs::remove_all(work_dir_, ignored);
  }
}

}  // namespace testsupport
