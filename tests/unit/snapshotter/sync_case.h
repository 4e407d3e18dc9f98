// The table runner of the content handler tests, for either kind, in the
// style of upstream's controllerTest: content, classes and Secrets in; the
// exact API writes, CSI calls, Events and outcome out. `Kind` names the
// content and class types, the handler's options, the fake driver and its
// script, the default class, and how a handler is made
// (handler_fixtures.h: SnapshotTestKind; group_handler_fixtures.h:
// GroupTestKind).
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "base/clock.h"
#include "kube/runtime/store.h"
#include "snapshotter/content_handler.h"
#include "tests/unit/snapshotter/fakes.h"

namespace snapshotter::testing {

// One SyncContent of `content` (also the API server's copy), checked against
// the exact API and CSI calls it must make, in order, the Events and the
// outcome.
template <class Kind>
struct SyncCaseOf {
  using Content = typename Kind::Content;

  std::string name = {};
  Content content = {};
  std::vector<typename Kind::Class> classes = {Kind::kDefaultClass};
  std::vector<kube::Secret> secrets = {};
  typename Kind::Options options = {};
  std::vector<ApiFailure> api_failures = {};
  typename Kind::Driver::Script driver = {};
  std::vector<ApiCall> want_api = {};
  std::vector<std::string> want_csi = {};
  std::vector<std::string> want_events = {};
  SyncOutcome want_outcome = SyncOutcome::kDone;
  std::string want_error = {};  // empty: success with want_outcome
  // Checks the API server's copy afterwards (nullopt: the content is gone).
  std::function<void(const std::optional<Content>&)> want_stored = {};
};

// Computes the exception specification of a case's default member
// initializers. GCC 12 crashes (internal compiler error in nothrow_spec_p)
// on a braced list of cases of a class template whose specification was not
// computed before; each fixture's alias asserts this once, right after it.
template <class Case>
constexpr bool WarmedUp() {
  return noexcept(Case{}) || true;
}

template <class Kind>
void PrintTo(const SyncCaseOf<Kind>& c, std::ostream* os) {
  *os << c.name;
}

template <class Class>
void Fill(kube::Store<Class>& store, const std::vector<Class>& classes) {
  for (const auto& c : classes) store.Upsert(std::make_shared<const Class>(c));
}

template <class Kind>
void RunSyncCase(const SyncCaseOf<Kind>& c) {
  using Content = typename Kind::Content;
  kube::Store<typename Kind::Class> classes;
  Fill(classes, c.classes);
  base::FakeClock clock;
  FakeSnapshotApi api(c.api_failures);
  api.Put(c.content);
  for (const kube::Secret& secret : c.secrets) api.AddSecret(secret);
  typename Kind::Driver driver(c.driver);
  FakeContentEventsOf<Content> events;
  auto handler = Kind::MakeHandler(classes, api, driver, events, c.options, clock);

  base::Result<SyncOutcome> outcome = handler.SyncContent(c.content);

  if (c.want_error.empty()) {
    ASSERT_TRUE(outcome.ok()) << outcome.error().message;
    EXPECT_EQ(*outcome, c.want_outcome);
  } else {
    ASSERT_FALSE(outcome.ok());
    EXPECT_EQ(outcome.error().message, c.want_error);
  }
  EXPECT_THAT(api.calls(), ::testing::ElementsAreArray(c.want_api));
  EXPECT_THAT(driver.calls(), ::testing::ElementsAreArray(c.want_csi));
  EXPECT_THAT(events.events(), ::testing::ElementsAreArray(c.want_events));
  if (c.want_stored) c.want_stored(api.template Stored<Content>(c.content.metadata.name));
}

}  // namespace snapshotter::testing
