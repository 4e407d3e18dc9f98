// docs/attacher.md §2: blocking connect bounded by a deadline with "Still
// connecting" logs, exit on connection loss with the termination message,
// and the per-call hooks (V(5) request/response logging with secrets
// stripped and the response capped; the metrics hook of §4).
#include "csi/connection.h"

#include <absl/synchronization/mutex.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "csi/controller_client.h"
#include "csi/errors.h"
#include "csi/identity_client.h"
#include "csi/methods.h"
#include "tests/support/thread_stats.h"
#include "tests/unit/csi/fake_driver.h"

namespace csi {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using namespace std::chrono_literals;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ConnectionTest : public ::testing::Test {
 protected:
  ConnectionTest() {
    options_.termination_log_path = driver_.dir() + "/termination-log";
    options_.on_connection_loss = [this] { lost_.set_value(); };
  }

  std::unique_ptr<Connection> MustConnect() {
    driver_.Start();
    auto connection = Connect(driver_.socket_path(), options_);
    EXPECT_TRUE(connection.ok()) << connection.error().message;
    return connection.ok() ? std::move(connection).value() : nullptr;
  }

  // A publish request carrying a secret.
  static v1::ControllerPublishVolumeRequest PublishWithSecret() {
    v1::ControllerPublishVolumeRequest request;
    request.set_volume_id("vol-1");
    request.set_node_id("node-1");
    (*request.mutable_secrets())["password"] = "hunter2";
    return request;
  }

  testing::FakeDriver driver_;  // outlives the connection
  ConnectOptions options_;
  std::promise<void> lost_;
};

TEST_F(ConnectionTest, ConnectsToAbsolutePathAndUnixUri) {
  driver_.get_plugin_info = [](auto*, auto&, v1::GetPluginInfoResponse* response) {
    response->set_name("hostpath.csi.k8s.io");
    return grpc::Status::OK;
  };
  driver_.Start();
  for (const std::string& address : {driver_.socket_path(), "unix://" + driver_.socket_path()}) {
    auto connection = Connect(address, options_);
    ASSERT_TRUE(connection.ok()) << address << ": " << connection.error().message;
    auto name = IdentityClient(**connection).GetDriverName(5s);
    ASSERT_TRUE(name.ok()) << name.error().message;
    EXPECT_EQ(*name, "hostpath.csi.k8s.io");
  }
}

TEST_F(ConnectionTest, NonUnixAddressIsRejectedBeforeDialing) {
  auto connection = Connect("localhost:10000", options_);
  ASSERT_FALSE(connection.ok());
  EXPECT_EQ(connection.error().message,
            "OnConnectionLoss callback only supported for unix:// addresses");
}

TEST_F(ConnectionTest, ConnectGivesUpAtDeadlineLoggingStillConnecting) {
  testing::LogCapture logs;
  options_.connect_timeout = 350ms;
  options_.log_interval = 100ms;
  auto start = std::chrono::steady_clock::now();
  auto connection = Connect(driver_.socket_path(), options_);  // nobody listens
  auto elapsed = std::chrono::steady_clock::now() - start;

  ASSERT_FALSE(connection.ok());
  std::string uri = "unix://" + driver_.socket_path();
  EXPECT_EQ(connection.error().message, "connecting to " + uri + ": context deadline exceeded");
  EXPECT_TRUE(connection.error().IsTransport());
  EXPECT_GE(elapsed, 350ms);
  EXPECT_LT(elapsed, 2s);
  auto still = logs.Grep("\"Still connecting\"");
  EXPECT_GE(still.size(), 2u);
  EXPECT_LE(still.size(), 3u);
  for (const std::string& line : still) EXPECT_THAT(line, HasSubstr("address=\"" + uri + "\""));
}

TEST_F(ConnectionTest, AStopRequestEndsTheWaitForADriverThatNeverListens) {
  options_.connect_timeout = std::chrono::hours(1);  // a missed stop hangs the test
  std::stop_source stop;
  options_.stop = stop.get_token();
  std::thread sigterm([&stop] {
    std::this_thread::sleep_for(200ms);
    stop.request_stop();
  });
  auto connection = Connect(driver_.socket_path(), options_);  // nobody listens
  sigterm.join();
  ASSERT_FALSE(connection.ok());
  EXPECT_EQ(connection.error().message,
            "connecting to unix://" + driver_.socket_path() + ": stopped");
}

TEST_F(ConnectionTest, ConnectWaitsForSocketToAppear) {
  options_.connect_timeout = 10s;
  std::thread late_driver([this] {
    std::this_thread::sleep_for(200ms);
    driver_.Start();
  });
  auto connection = Connect(driver_.socket_path(), options_);
  late_driver.join();
  ASSERT_TRUE(connection.ok()) << connection.error().message;
}

TEST_F(ConnectionTest, LostConnectionWritesTerminationMessageAndCallsBack) {
  testing::LogCapture logs;
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  driver_.Stop();

  ASSERT_EQ(lost_.get_future().wait_for(10s), std::future_status::ready);
  EXPECT_EQ(ReadFile(options_.termination_log_path), "Lost connection to CSI driver, exiting");
  struct stat st {};
  ASSERT_EQ(::stat(options_.termination_log_path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0133, 0u) << "mode " << std::oct << (st.st_mode & 0777);
  EXPECT_THAT(logs.Grep("\"Lost connection\""),
              ElementsAre(AllOf(::testing::StartsWith("E"),
                                HasSubstr("address=\"unix://" + driver_.socket_path()))));
  EXPECT_EQ(logs.Grep("\"Lost connection to CSI driver, exiting\"").size(), 1u);
}

TEST_F(ConnectionTest, TerminationLogFailureIsOnlyLogged) {
  testing::LogCapture logs;
  options_.termination_log_path = driver_.dir() + "/missing-dir/termination-log";
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  driver_.Stop();

  ASSERT_EQ(lost_.get_future().wait_for(10s), std::future_status::ready);
  auto failed = logs.Grep("\"Failed to write a message to the termination logfile\"");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_THAT(failed[0], HasSubstr("terminationLogPath=\"" + options_.termination_log_path));
  EXPECT_THAT(failed[0], HasSubstr("No such file or directory"));
}

TEST_F(ConnectionTest, ClosingTheConnectionIsNotALoss) {
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  connection.reset();
  driver_.Stop();
  EXPECT_EQ(lost_.get_future().wait_for(200ms), std::future_status::timeout);
}

// On an idle channel the watcher polls gRPC's sockets for up to a second at a
// time; closing the connection ends that poll instead of waiting it out, so a
// SIGTERM never waits on the watcher.
TEST_F(ConnectionTest, ClosingAnIdleConnectionEndsTheWatchersPollAtOnce) {
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  // Well into an idle poll: no call has run since the connect.
  std::this_thread::sleep_for(1300ms);
  const auto start = std::chrono::steady_clock::now();
  connection.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 500ms);
  EXPECT_EQ(lost_.get_future().wait_for(0ms), std::future_status::timeout);
}

// docs/design.md §5: while calls run, the loss watcher sleeps on its own
// between looks at the channel's state, so a reply wakes only the thread
// whose call it answers. Waiting in gRPC for a state change, it takes part in
// gRPC's polling and is woken by most replies (82 of 100).
TEST_F(ConnectionTest, LossWatcherSleepsThroughCalls) {
  driver_.get_plugin_info = [](auto*, auto&, v1::GetPluginInfoResponse* response) {
    response->set_name("hostpath.csi.k8s.io");
    return grpc::Status::OK;
  };
  const std::set<std::string> before = testsupport::ThreadIds();
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  // The watcher is the one new thread that carries this process's name
  // (gRPC names its own threads).
  const std::string process_name = testsupport::ThreadName(std::to_string(::getpid()));
  std::string watcher;
  for (const auto& tid : testsupport::ThreadIds()) {
    if (!before.contains(tid) && testsupport::ThreadName(tid) == process_name) watcher = tid;
  }
  ASSERT_FALSE(watcher.empty());

  IdentityClient identity(*connection);
  auto call_for = [&](std::chrono::milliseconds period) {
    int calls = 0;
    for (auto end = std::chrono::steady_clock::now() + period;
         std::chrono::steady_clock::now() < end; ++calls) {
      if (!identity.GetDriverName(5s).ok()) return -1;
    }
    return calls;
  };
  // Until its idle poll ends (a second at most), the watcher is one of gRPC's
  // pollers; half a second more is slack for a loaded machine.
  ASSERT_GT(call_for(1500ms), 0);
  const long settled = testsupport::VoluntarySwitches(watcher);
  const int calls = call_for(1500ms);
  ASSERT_GT(calls, 0);
  const long woken = testsupport::VoluntarySwitches(watcher) - settled;
  // It looks at the channel once a second: two looks in 1.5 s, and one more
  // for a scheduler's slack.
  EXPECT_LE(woken, 3) << calls << " calls";
}

// The other half of the watcher's bargain: with calls running it relies on
// their threads to notice a closed socket, and still sees the loss.
TEST_F(ConnectionTest, LossIsNoticedWhileCallsKeepComing) {
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  IdentityClient identity(*connection);
  std::atomic<bool> done = false;
  std::atomic<int> calls = 0;
  std::thread caller([&] {
    while (!done) {
      (void)identity.GetDriverName(1s);
      ++calls;
    }
  });
  while (calls < 20) std::this_thread::sleep_for(1ms);
  driver_.Stop();
  const auto lost = lost_.get_future().wait_for(10s);
  done = true;
  caller.join();
  EXPECT_EQ(lost, std::future_status::ready);
}

// gRPC's locks are abseil mutexes; Debian's abseil would check every lock
// order and abort the process on a cycle it suspects. Connect turns that
// off, so two locks taken in both orders (a cycle, but never a deadlock in
// one thread) pass.
TEST_F(ConnectionTest, ConnectTurnsOffAbseilDeadlockDetection) {
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  absl::Mutex first;
  absl::Mutex second;
  {
    absl::MutexLock a(&first);
    absl::MutexLock b(&second);
  }
  {
    absl::MutexLock b(&second);
    absl::MutexLock a(&first);
  }
}

TEST_F(ConnectionTest, SecretsNeverReachTheLog) {
  driver_.publish = [](auto*, auto&, v1::ControllerPublishVolumeResponse* response) {
    (*response->mutable_publish_context())["device"] = "/dev/xvdb";
    return grpc::Status::OK;
  };
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  ControllerClient client(*connection);
  v1::ControllerUnpublishVolumeRequest unpublish;
  unpublish.set_volume_id("vol-1");
  (*unpublish.mutable_secrets())["password"] = "hunter2";

  for (int verbosity : {0, 5, 10}) {
    for (auto format : {base::LogFormat::kText, base::LogFormat::kJson}) {
      testing::LogCapture logs(verbosity, format);
      ASSERT_TRUE(client.ControllerPublishVolume(PublishWithSecret(), {.timeout = 5s}).ok());
      ASSERT_TRUE(client.ControllerUnpublishVolume(unpublish, {.timeout = 5s}).ok());
      for (const std::string& line : logs.lines()) EXPECT_THAT(line, Not(HasSubstr("hunter2")));
      if (verbosity >= 5) {
        EXPECT_EQ(logs.Grep("***stripped***").size(), 2u) << verbosity;
      } else {
        EXPECT_THAT(logs.lines(), IsEmpty());
      }
    }
  }
}

TEST_F(ConnectionTest, CallAndResponseAreLoggedAtV5) {
  driver_.publish = [](auto*, auto&, v1::ControllerPublishVolumeResponse* response) {
    (*response->mutable_publish_context())["device"] = "/dev/xvdb";
    return grpc::Status::OK;
  };
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  testing::LogCapture logs(5);
  ASSERT_TRUE(ControllerClient(*connection)
                  .ControllerPublishVolume(PublishWithSecret(), {.timeout = 5s})
                  .ok());

  auto call = logs.Grep("\"GRPC call\"");
  ASSERT_EQ(call.size(), 1u);
  EXPECT_THAT(call[0], HasSubstr(R"(method="/csi.v1.Controller/ControllerPublishVolume")"));
  EXPECT_THAT(call[0], HasSubstr(R"(request="{\"node_id\":\"node-1\",)"
                                 R"(\"secrets\":\"***stripped***\",\"volume_id\":\"vol-1\"}")"));
  auto response = logs.Grep("\"GRPC response\"");
  ASSERT_EQ(response.size(), 1u);
  EXPECT_THAT(response[0],
              HasSubstr(R"(response="{\"publish_context\":{\"device\":\"/dev/xvdb\"}}")"));
  EXPECT_THAT(response[0], HasSubstr(R"(err="<nil>")"));
}

TEST_F(ConnectionTest, FailedCallLogsEmptyResponseAndGoStyleError) {
  driver_.publish = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "no such volume");
  };
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  testing::LogCapture logs(5);
  ASSERT_FALSE(ControllerClient(*connection)
                   .ControllerPublishVolume(PublishWithSecret(), {.timeout = 5s})
                   .ok());
  auto response = logs.Grep("\"GRPC response\"");
  ASSERT_EQ(response.size(), 1u);
  EXPECT_THAT(response[0], HasSubstr(R"(response="{}")"));
  EXPECT_THAT(response[0], HasSubstr(R"(err="rpc error: code = NotFound desc = no such volume")"));
}

TEST_F(ConnectionTest, ResponseLogIsCappedButRequestIsNot) {
  driver_.publish = [](auto*, auto&, v1::ControllerPublishVolumeResponse* response) {
    (*response->mutable_publish_context())["device"] = std::string(100, 'x');
    return grpc::Status::OK;
  };
  options_.max_grpc_log_length = 20;
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  testing::LogCapture logs(5);
  ASSERT_TRUE(ControllerClient(*connection)
                  .ControllerPublishVolume(PublishWithSecret(), {.timeout = 5s})
                  .ok());

  auto response = logs.Grep("\"GRPC response\"");
  ASSERT_EQ(response.size(), 1u);
  EXPECT_THAT(response[0],
              HasSubstr(R"(response="{\"publish_context\":{ [response body too large, )"
                        R"(log capped to 20 chars]")"));
  EXPECT_THAT(logs.Grep("\"GRPC call\"").at(0), HasSubstr(R"(\"volume_id\":\"vol-1\"}")"));
}

TEST_F(ConnectionTest, UncappedWhenLimitIsZeroOrLess) {
  driver_.publish = [](auto*, auto&, v1::ControllerPublishVolumeResponse* response) {
    (*response->mutable_publish_context())["device"] = std::string(100, 'x');
    return grpc::Status::OK;
  };
  options_.max_grpc_log_length = 0;
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  testing::LogCapture logs(5);
  ASSERT_TRUE(ControllerClient(*connection)
                  .ControllerPublishVolume(PublishWithSecret(), {.timeout = 5s})
                  .ok());
  EXPECT_THAT(logs.Grep("\"GRPC response\"").at(0),
              AllOf(HasSubstr(std::string(100, 'x')), Not(HasSubstr("capped"))));
}

struct RecordedCall {
  std::string method;
  int code;
  double seconds;
  bool migrated;
};

TEST_F(ConnectionTest, MetricsHookSeesEveryCallWithMethodCodeAndDuration) {
  std::mutex mu;
  std::vector<RecordedCall> calls;
  options_.metrics = [&](const CallRecord& r) {
    std::lock_guard lock(mu);
    calls.push_back({std::string(r.method), r.code, r.seconds, r.migrated});
  };
  driver_.publish = [](auto*, auto&, auto*) {
    std::this_thread::sleep_for(50ms);
    return grpc::Status::OK;
  };
  driver_.unpublish = [](grpc::ServerContext* context, auto&, auto*) {
    testing::WaitForCancel(context);
    return grpc::Status::OK;
  };
  driver_.get_plugin_info = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "starting");
  };
  auto connection = MustConnect();
  ASSERT_NE(connection, nullptr);
  ControllerClient controller(*connection);

  ASSERT_TRUE(
      controller.ControllerPublishVolume(PublishWithSecret(), {.timeout = 5s, .migrated = true})
          .ok());
  ASSERT_FALSE(controller.ControllerUnpublishVolume({}, {.timeout = 50ms}).ok());
  ASSERT_FALSE(IdentityClient(*connection).GetDriverName(5s).ok());

  std::lock_guard lock(mu);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].method, kControllerPublishVolumeMethod);
  EXPECT_EQ(calls[0].code, 0);
  EXPECT_GE(calls[0].seconds, 0.05);
  EXPECT_TRUE(calls[0].migrated);
  EXPECT_EQ(calls[1].method, "/csi.v1.Controller/ControllerUnpublishVolume");
  EXPECT_EQ(CodeName(calls[1].code), "DeadlineExceeded");
  EXPECT_FALSE(calls[1].migrated);
  EXPECT_EQ(calls[2].method, "/csi.v1.Identity/GetPluginInfo");
  EXPECT_EQ(CodeName(calls[2].code), "Unavailable");
}

}  // namespace
}  // namespace csi
