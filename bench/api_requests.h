// API requests by verb and resource, from the kube-apiserver's own counter
// apiserver_request_total (scraped from /metrics with the admin client). Only
// the resources the stack under test touches are kept, and the writes the
// load generator itself makes (RequestFilter::generator_writes) are left out,
// so the difference of two scrapes around a run counts the contender's
// requests (the observer's watches are counted when they end, after the
// second scrape).
#pragma once

#include <chrono>
#include <map>
#include <set>
#include <string>

#include "base/result.h"
#include "kube/client/client.h"

namespace bench {

struct RequestFilter {
  std::set<std::string, std::less<>> resources;  // "volumeattachments"
  // "POST volumeattachments"; a subresource's writes are named with it, so
  // "PATCH persistentvolumeclaims" leaves "PATCH persistentvolumeclaims/status" counted.
  std::set<std::string, std::less<>> generator_writes;
};

// "PATCH volumeattachments/status" -> count; requests the server refused
// carry their code: "PATCH volumeattachments/status 409".
using RequestCounts = std::map<std::string, double>;

base::Result<RequestCounts> ScrapeRequestCounts(kube::Client& admin, const RequestFilter& filter);

// after - before, zero entries dropped.
RequestCounts Difference(const RequestCounts& after, const RequestCounts& before);

// Scrapes every 500 ms until the counts have not changed for `quiet`: the
// time of the scrape that showed the last change (the first scrape's when
// none did); an error when `timeout` passes first.
base::Result<std::chrono::steady_clock::time_point> RequestsSettled(kube::Client& admin,
                                                                    const RequestFilter& filter,
                                                                    std::chrono::seconds quiet,
                                                                    std::chrono::seconds timeout);

// The watches open now, by resource ("persistentvolumes" -> 3), from the
// gauge apiserver_longrunning_requests{verb="WATCH"} summed over its scopes:
// the difference of two scrapes around a contender's start is its watches
// (every other watcher - kube-controller-manager, the observers - is there
// in both).
using WatchCounts = std::map<std::string, double>;
base::Result<WatchCounts> ScrapeWatchCounts(kube::Client& admin);

double Total(const RequestCounts& counts);
// The writes (POST, PUT, PATCH, DELETE, APPLY) among `counts`, refused ones
// included: of events alone, or of everything else.
double EventWrites(const RequestCounts& counts);
double ObjectWrites(const RequestCounts& counts);

}  // namespace bench
