// What /proc says about this process's threads, for tests that check a
// thread sleeps instead of polling: which threads exist and how often each
// went to sleep of its own accord.
#pragma once

#include <set>
#include <string>

namespace testsupport {

// The ids (as in /proc/self/task) of this process's threads.
std::set<std::string> ThreadIds();
// Voluntary context switches of thread `tid`; -1 when it has gone.
long VoluntarySwitches(const std::string& tid);

}  // namespace testsupport
