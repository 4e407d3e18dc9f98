// EventRecorder and EventCorrelator against an in-memory EventApi and a
// FakeClock (docs/attacher.md §7: Warning Events on failures, rate-limited, a
// missing events permission logged once).
#include "kube/tools/event_recorder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/log.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::SizeIs;

struct EventCall {
  std::string verb = {};  // "create" or "patch"
  Event event = {};       // create: the Event sent
  std::string ns = {};    // patch
  std::string name = {};  // patch
  std::string patch = {};
};

// Records calls; answers with the scripted error codes of each verb (0 = ok).
// With the gate closed, calls block until it opens.
class FakeEventApi final : public EventApi {
 public:
  base::Status Create(const Event& event) override {
    return Call({.verb = "create", .event = event}, create_error_);
  }
  base::Status Patch(std::string_view ns, std::string_view name,
                     const std::string& merge_patch) override {
    return Call(
        {.verb = "patch", .ns = std::string(ns), .name = std::string(name), .patch = merge_patch},
        patch_error_);
  }

  void FailCreates(int code) {
    std::lock_guard lock(mu_);
    create_error_ = code;
  }
  void FailPatches(int code) {
    std::lock_guard lock(mu_);
    patch_error_ = code;
  }
  void CloseGate() {
    std::lock_guard lock(mu_);
    gate_open_ = false;
  }
  void OpenGate() {
    {
      std::lock_guard lock(mu_);
      gate_open_ = true;
    }
    cv_.notify_all();
  }
  void AwaitCalls(std::size_t n) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return calls_.size() >= n; });
  }
  std::vector<EventCall> calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }

 private:
  base::Status Call(EventCall call, const int& error) {
    std::unique_lock lock(mu_);
    calls_.push_back(std::move(call));
    cv_.notify_all();
    cv_.wait(lock, [&] { return gate_open_; });
    if (error != 0) return base::Error::Http(error, "scripted failure");
    return base::Status::Ok();
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<EventCall> calls_;
  int create_error_ = 0;
  int patch_error_ = 0;
  bool gate_open_ = true;
};

ObjectReference VaRef(const std::string& name = "va-1") {
  ObjectReference ref;
  ref.kind = "VolumeAttachment";
  ref.name = name;
  ref.uid = "uid-" + name;
  ref.api_version = "storage.k8s.io/v1";
  ref.resource_version = "7";
  return ref;
}

// The FakeClock's start, as metav1.Time.
constexpr std::string_view kStart = "2023-11-14T22:13:20Z";

class EventRecorderTest : public ::testing::Test {
 protected:
  EventRecorderOptions Options() {
    EventRecorderOptions options;
    options.component = "csi-attacher";
    options.host = "pod-1";
    return options;
  }
  void RecordFailure(const std::string& message, const ObjectReference& ref = VaRef()) {
    recorder_.Record(ref, kEventTypeWarning, "AttachFailed", message);
  }

  base::FakeClock clock_;
  FakeEventApi api_;
  EventRecorder recorder_{api_, clock_, Options()};
};

TEST_F(EventRecorderTest, FirstFailureCreatesWarningEventInDefaultNamespace) {
  RecordFailure("rpc error: boom");
  recorder_.Drain();

  auto calls = api_.calls();
  ASSERT_THAT(calls, SizeIs(1));
  EXPECT_EQ(calls[0].verb, "create");
  const Event& e = calls[0].event;
  EXPECT_EQ(e.metadata.namespace_, "default");
  EXPECT_TRUE(e.metadata.name.starts_with("va-1.")) << e.metadata.name;
  EXPECT_EQ(e.involved_object, VaRef());
  EXPECT_EQ(e.type, "Warning");
  EXPECT_EQ(e.reason, "AttachFailed");
  EXPECT_EQ(e.message, "rpc error: boom");
  EXPECT_EQ(e.count, 1);
  EXPECT_EQ(e.first_timestamp, kStart);
  EXPECT_EQ(e.last_timestamp, kStart);
  EXPECT_EQ(e.source, (EventSource{"csi-attacher", "pod-1"}));
  EXPECT_EQ(e.reporting_component, "csi-attacher");
  EXPECT_EQ(e.reporting_instance, "pod-1");
}

TEST_F(EventRecorderTest, SecondIdenticalEventPatchesCountTwoAndLastTimestamp) {
  RecordFailure("boom");
  recorder_.Drain();
  clock_.Advance(30s);
  // A status write in between changed the VA's resourceVersion: still a repeat.
  ObjectReference newer = VaRef();
  newer.resource_version = "8";
  RecordFailure("boom", newer);
  recorder_.Drain();

  auto calls = api_.calls();
  ASSERT_THAT(calls, SizeIs(2));
  EXPECT_EQ(calls[1].verb, "patch");
  EXPECT_EQ(calls[1].ns, "default");
  EXPECT_EQ(calls[1].name, calls[0].event.metadata.name);
  EXPECT_EQ(nlohmann::json::parse(calls[1].patch),
            (nlohmann::json{{"count", 2}, {"lastTimestamp", "2023-11-14T22:13:50Z"}}));
}

TEST_F(EventRecorderTest, DifferentMessageCreatesNewEvent) {
  RecordFailure("boom");
  RecordFailure("bang");
  recorder_.Drain();

  auto calls = api_.calls();
  ASSERT_THAT(calls, SizeIs(2));
  EXPECT_EQ(calls[1].verb, "create");
  EXPECT_EQ(calls[1].event.message, "bang");
  EXPECT_NE(calls[1].event.metadata.name, calls[0].event.metadata.name);
}

TEST_F(EventRecorderTest, RepeatAfterAggregationWindowCreatesNewEvent) {
  RecordFailure("boom");
  recorder_.Drain();
  clock_.Advance(11min);
  RecordFailure("boom");
  recorder_.Drain();

  auto calls = api_.calls();
  ASSERT_THAT(calls, SizeIs(2));
  EXPECT_EQ(calls[1].verb, "create");
  EXPECT_EQ(calls[1].event.count, 1);
}

TEST_F(EventRecorderTest, RepeatOfVanishedEventCreatesItWithTheCount) {
  api_.FailPatches(404);
  RecordFailure("boom");
  RecordFailure("boom");
  recorder_.Drain();

  auto calls = api_.calls();
  ASSERT_THAT(calls, SizeIs(3));
  EXPECT_EQ(calls[1].verb, "patch");
  EXPECT_EQ(calls[2].verb, "create");
  EXPECT_EQ(calls[2].event.metadata.name, calls[0].event.metadata.name);
  EXPECT_EQ(calls[2].event.count, 2);
  EXPECT_EQ(calls[2].event.first_timestamp, kStart);
}

TEST_F(EventRecorderTest, TokenBucketDropsEventsBeyondBurstPerObject) {
  for (int i = 0; i < 30; ++i) RecordFailure("failure " + std::to_string(i));
  RecordFailure("other object", VaRef("va-2"));
  recorder_.Drain();
  auto calls = api_.calls();
  ASSERT_THAT(calls, SizeIs(26));
  EXPECT_EQ(calls[24].event.message, "failure 24");
  EXPECT_EQ(calls[25].event.message, "other object");

  // One token back every 5 minutes (a second more: the refill is floating point).
  clock_.Advance(5min + 1s);
  RecordFailure("after refill 1");
  RecordFailure("after refill 2");
  recorder_.Drain();
  calls = api_.calls();
  ASSERT_THAT(calls, SizeIs(27));
  EXPECT_EQ(calls[26].event.message, "after refill 1");
}

TEST_F(EventRecorderTest, RepeatsDroppedByTokenBucketStillCount) {
  for (int i = 0; i < 25; ++i) RecordFailure("failure " + std::to_string(i));
  for (int i = 0; i < 3; ++i) RecordFailure("failure 0");  // dropped, but counted
  clock_.Advance(5min + 1s);
  RecordFailure("failure 0");
  recorder_.Drain();

  auto calls = api_.calls();
  ASSERT_THAT(calls, SizeIs(26));
  EXPECT_EQ(calls[25].verb, "patch");
  EXPECT_EQ(nlohmann::json::parse(calls[25].patch)["count"], 5);
}

class LogCapture {
 public:
  LogCapture() {
    base::SetLogSink([this](std::string_view line) {
      std::lock_guard lock(mu_);
      lines_.emplace_back(line);
    });
  }
  ~LogCapture() { base::SetLogSink(nullptr); }
  int Count(std::string_view text) {
    std::lock_guard lock(mu_);
    int n = 0;
    for (const std::string& line : lines_) n += line.find(text) != std::string::npos;
    return n;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> lines_;
};

TEST_F(EventRecorderTest, ForbiddenIsLoggedOnceAndStopsRequests) {
  LogCapture log;
  api_.FailCreates(403);
  for (int i = 0; i < 5; ++i) RecordFailure("failure " + std::to_string(i));
  recorder_.Drain();
  clock_.Advance(1min);
  RecordFailure("later failure");
  recorder_.Drain();

  EXPECT_THAT(api_.calls(), SizeIs(1));
  EXPECT_EQ(log.Count("Cannot record Events: permission denied. Grant create and patch on events"),
            1);

  // After the pause one Event probes again; a second denial is not warned again.
  clock_.Advance(10min);
  RecordFailure("much later failure");
  recorder_.Drain();
  EXPECT_THAT(api_.calls(), SizeIs(2));
  EXPECT_EQ(log.Count("Cannot record Events"), 1);
}

TEST_F(EventRecorderTest, PermissionGrantedAfterPauseRecordsAgain) {
  api_.FailCreates(403);
  RecordFailure("denied");
  recorder_.Drain();
  api_.FailCreates(0);
  clock_.Advance(10min);
  RecordFailure("allowed");
  recorder_.Drain();

  auto calls = api_.calls();
  ASSERT_THAT(calls, SizeIs(2));
  EXPECT_EQ(calls[1].event.message, "allowed");
}

Event NewEvent(const std::string& object, const std::string& name) {
  Event event;
  event.metadata.name = name;
  event.involved_object = VaRef(object);
  event.message = "boom";
  event.count = 1;
  return event;
}

TEST(EventCorrelatorTest, LeastRecentlyUsedEntryIsForgottenBeyondMaxTracked) {
  base::FakeClock clock;
  EventCorrelator correlator(clock, {.max_tracked = 2});
  ASSERT_TRUE(correlator.Correlate(NewEvent("va-1", "e1")));
  clock.Advance(1s);
  ASSERT_TRUE(correlator.Correlate(NewEvent("va-2", "e2")));
  clock.Advance(1s);
  ASSERT_TRUE(correlator.Correlate(NewEvent("va-3", "e3")));  // evicts va-1
  clock.Advance(1s);

  auto again = correlator.Correlate(NewEvent("va-1", "e4"));
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->repeat);
  EXPECT_EQ(again->event.metadata.name, "e4");
  auto repeat = correlator.Correlate(NewEvent("va-3", "e5"));
  ASSERT_TRUE(repeat);
  EXPECT_TRUE(repeat->repeat);
  EXPECT_EQ(repeat->event.metadata.name, "e3");
  EXPECT_EQ(repeat->event.count, 2);
}

TEST(EventRecorderQueueTest, RecordNeverWaitsForSlowApiAndDropsBeyondQueueCapacity) {
  base::FakeClock clock;
  FakeEventApi api;
  EventRecorderOptions options;
  options.component = "csi-attacher";
  options.queue_capacity = 2;
  EventRecorder recorder(api, clock, options);

  api.CloseGate();
  recorder.Record(VaRef(), kEventTypeWarning, "AttachFailed", "in flight");
  api.AwaitCalls(1);  // the sender is now stuck in the API
  for (int i = 0; i < 4; ++i) {
    recorder.Record(VaRef(), kEventTypeWarning, "AttachFailed", "queued " + std::to_string(i));
  }
  api.OpenGate();
  recorder.Drain();

  std::vector<std::string> messages;
  for (const EventCall& call : api.calls()) messages.push_back(call.event.message);
  EXPECT_THAT(messages, ElementsAre("in flight", "queued 0", "queued 1"));
}

}  // namespace
}  // namespace kube
