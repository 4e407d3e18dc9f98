// csi-node-driver-registrar's flags and the exit codes of its command line
// (docs/node-sidecars.md §3.1, §3.2 steps 1-4).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "cmd/csi-node-driver-registrar/options.h"
#include "cmd/csi-node-driver-registrar/run.h"

namespace noderegistrar {
namespace {

using namespace std::chrono_literals;

Options ParsedRegistrarOptions(std::vector<std::string> args) {
  Options options;
  std::ostringstream err;
  base::FlagSet flags("csi-node-driver-registrar", &err);
  RegisterFlags(flags, options);
  EXPECT_TRUE(flags.Parse(args).ok()) << err.str();
  return options;
}

TEST(RegistrarOptionsTest, DefaultsAreUpstreams) {
  Options o = ParsedRegistrarOptions({});
  EXPECT_EQ(o.csi_address, "/run/csi/socket");
  EXPECT_EQ(o.kubelet_registration_path, "");
  EXPECT_EQ(o.plugin_registration_path, "/registration");
  EXPECT_EQ(o.mode, "");
  EXPECT_EQ(o.timeout, 1s);
  EXPECT_EQ(o.health_port, 0);
  EXPECT_EQ(o.http_endpoint, "");
  EXPECT_FALSE(o.enable_pprof);
  EXPECT_EQ(o.connection_timeout, 0s);
  EXPECT_EQ(HttpAddress(o), "");
}

TEST(RegistrarOptionsTest, HealthPortListensOnAllInterfaces) {
  EXPECT_EQ(HttpAddress(ParsedRegistrarOptions({"--health-port=9809"})), ":9809");
  EXPECT_EQ(HttpAddress(ParsedRegistrarOptions({"--health-port=-1", "--http-endpoint=:1"})), ":1");
}

struct RegistrarExitCase {
  std::vector<std::string> args;
  int code;
  std::string out;  // --version's output
};

// §3.2: --version first (0), the registration path required (1), the probe
// mode a no-op (0), both HTTP flags refused (1); flag mistakes 2.
TEST(RegistrarRunTest, ExitCodesOfTheCommandLine) {
  const std::vector<RegistrarExitCase> cases = {
      {{"--version"}, 0, "csi-node-driver-registrar "},
      {{"--version", "--health-port=1", "--http-endpoint=:1"}, 0, "csi-node-driver-registrar "},
      {{}, 1, ""},
      {{"--mode=kubelet-registration-probe"}, 1, ""},
      {{"--kubelet-registration-path=/k/csi.sock", "--mode=kubelet-registration-probe"}, 0, ""},
      {{"--kubelet-registration-path=/k/csi.sock", "--health-port=1", "--http-endpoint=:2"}, 1, ""},
      {{"--no-such-flag"}, 2, ""},
      {{"--feature-gates=A=true"}, 2, ""},
  };
  for (const RegistrarExitCase& c : cases) {
    std::ostringstream out, err;
    component::RunEnvironment env;
    env.out = &out;
    env.err = &err;
    env.handle_signals = false;
    std::vector<std::string> args = {"csi-node-driver-registrar"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    EXPECT_EQ(noderegistrar::Run(args, std::move(env)), c.code) << ::testing::PrintToString(c.args);
    EXPECT_THAT(out.str(), ::testing::StartsWith(c.out)) << ::testing::PrintToString(c.args);
  }
}

}  // namespace
}  // namespace noderegistrar
