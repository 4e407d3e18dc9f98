// What /proc says about this process's threads, for tests that check a
// thread sleeps instead of polling: which threads exist, what each is named
// and how often each went to sleep of its own accord.
#pragma once

#include <set>
#include <string>

namespace testsupport {

// The ids (as in /proc/self/task) of this process's threads.
std::set<std::string> ThreadIds();
// The name of thread `tid` ("comm"), empty when it has gone.
std::string ThreadName(const std::string& tid);
// Voluntary context switches of thread `tid`; -1 when it has gone.
long VoluntarySwitches(const std::string& tid);

}  // namespace testsupport
