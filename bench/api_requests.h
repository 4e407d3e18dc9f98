// API requests by verb and resource, from the kube-apiserver's own counter
// apiserver_request_total (scraped from /metrics with the admin client). Only
// the resources an attacher touches are kept, and the writes the load
// generator itself makes (POST and DELETE of PVs and VAs) are left out, so the
// difference of two scrapes around a run counts the attacher's requests (the
// observer's single watch is counted when it ends, after the second scrape).
#pragma once

#include <map>
#include <string>

#include "base/result.h"
#include "kube/client/client.h"

namespace bench {

// "PATCH volumeattachments/status" -> count.
using RequestCounts = std::map<std::string, double>;

base::Result<RequestCounts> ScrapeRequestCounts(kube::Client& admin);

// after - before, zero entries dropped.
RequestCounts Difference(const RequestCounts& after, const RequestCounts& before);

double Total(const RequestCounts& counts);

}  // namespace bench
