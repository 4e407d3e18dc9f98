// The path of an absolute URL, parsed the way Go's net/url.Parse does it,
// because EBS volume IDs of the form aws://<zone>/<id> are read with it
// upstream (docs/migration.md §2.2) and a port must accept and reject the same IDs.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace migration {

// The percent-decoded path of `url` ("scheme://authority/path?query#fragment";
// "" when there is no path). Rejects what Go rejects, with Go's error text,
// e.g. `parse "aws:///vol-%zz": invalid URL escape "%zz"`: control
// characters, bad percent escapes (in userinfo, host, path or fragment),
// invalid userinfo, host characters or port, and a '[' host without ']'.
// IPv6 literals are not checked further.
base::Result<std::string> UrlPathOf(std::string_view url);

}  // namespace migration
