// csi-sidecars shares one informer per kind between its controllers
// (docs/csi-sidecars.md §3): with all four running, the API server holds at
// most one WATCH of each resource for the process - claims included, which
// the provisioner and the resizer both read. Counted as the API server
// counts them (apiserver_longrunning_requests), against the same count for
// upstream's four separate sidecars, where the provisioner and the resizer
// watch claims apart: the control that the count sees two when there are two.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <thread>

#include "tests/integration/sidecars/sidecars_fixture.h"
#include "tests/support/cluster_polls.h"

namespace sidecars_it {
namespace {

using namespace std::chrono_literals;
using WatchCounts = std::map<std::string, int>;

// The value of label `name` in a series' `{...}` text, or "".
std::string LabelOf(const std::string& labels, const std::string& name) {
  const std::string key = name + "=\"";
  const size_t start = labels.find(key);
  if (start == std::string::npos) return "";
  const size_t value = start + key.size();
  return labels.substr(value, labels.find('"', value) - value);
}

// The API server's open WATCH requests per resource, summed over scopes.
WatchCounts OpenWatches(kube::Client& admin) {
  WatchCounts counts;
  base::Result<std::string> body = admin.Request("GET", "/metrics");
  if (!body.ok()) return counts;
  std::istringstream lines(*body);
  const std::string series = "apiserver_longrunning_requests{";
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with(series)) continue;
    const size_t close = line.find('}');
    const std::string labels = line.substr(series.size(), close - series.size());
    if (LabelOf(labels, "verb") != "WATCH") continue;
    counts[LabelOf(labels, "resource")] += static_cast<int>(std::stod(line.substr(close + 2)));
  }
  return counts;
}

// OpenWatches once it reads the same twice a second apart (a process that
// just stopped may still be counted for a moment).
WatchCounts SettledWatches(kube::Client& admin) {
  WatchCounts last = OpenWatches(admin);
  for (int i = 0; i < 30; ++i) {
    std::this_thread::sleep_for(1s);
    WatchCounts now = OpenWatches(admin);
    if (now == last) break;
    last = std::move(now);
  }
  return last;
}

// What `after` holds beyond `before`, per resource.
WatchCounts Added(const WatchCounts& before, const WatchCounts& after) {
  WatchCounts added;
  for (const auto& [resource, count] : after) {
    auto it = before.find(resource);
    added[resource] = count - (it == before.end() ? 0 : it->second);
  }
  return added;
}

std::string Describe(const WatchCounts& counts) {
  std::string text;
  for (const auto& [resource, count] : counts) text += resource + "=" + std::to_string(count) + " ";
  return text;
}

class OneWatchPerKindTest : public CsiSidecarsTest {};

TEST_F(OneWatchPerKindTest, AllFourControllersWatchEachKindOnceWhereUpstreamsFourWatchClaimsTwice) {
  const std::string driver = "one-watch.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(
      StartFaultDriver(driver, {"--capabilities=PUBLISH_UNPUBLISH_VOLUME,EXPAND_VOLUME"}));

  // The control: upstream's four, each with informers of its own.
  const WatchCounts quiet = SettledWatches(*admin_);
  std::vector<testsupport::Process*> upstream;
  for (const auto& [variable, peer] : std::vector<std::pair<std::string, std::string>>{
           {"UPSTREAM_ATTACHER_BIN", "attacher"},
           {"UPSTREAM_PROVISIONER_BIN", "provisioner"},
           {"UPSTREAM_RESIZER_BIN", "resizer"},
           {"UPSTREAM_SNAPSHOTTER_BIN", "snapshotter"}}) {
    upstream.push_back(StartUpstream(variable, peer, {}, peer + "-watches"));
    ASSERT_NE(upstream.back(), nullptr);
  }
  ASSERT_TRUE(testsupport::PollUntil(
      [&] { return Added(quiet, OpenWatches(*admin_))["persistentvolumeclaims"] >= 2; }, 60s))
      << "upstream's provisioner and resizer never both watched claims: "
      << Describe(Added(quiet, OpenWatches(*admin_)));
  const WatchCounts theirs = Added(quiet, SettledWatches(*admin_));
  EXPECT_EQ(theirs.at("persistentvolumeclaims"), 2) << Describe(theirs);
  EXPECT_EQ(theirs.at("persistentvolumes"), 3) << Describe(theirs);
  for (testsupport::Process* process : upstream) process->Stop();

  // Ours, once its controllers work.
  const WatchCounts before = SettledWatches(*admin_);
  testsupport::Process* sidecars =
      StartCsiSidecars({"--controllers=attacher,provisioner,resizer,snapshotter"});
  ASSERT_NE(sidecars, nullptr);
  CreateClassAndClaim("one-watch", driver);
  ASSERT_TRUE(ClaimBound("one-watch")) << LogOf(*sidecars);
  const WatchCounts ours = Added(before, SettledWatches(*admin_));
  EXPECT_EQ(ours.at("persistentvolumeclaims"), 1) << Describe(ours);
  EXPECT_EQ(ours.at("persistentvolumes"), 1) << Describe(ours);
  EXPECT_EQ(ours.at("volumeattachments"), 1) << Describe(ours);
  for (const auto& [resource, count] : ours) EXPECT_LE(count, 1) << resource;
}

}  // namespace
}  // namespace sidecars_it
