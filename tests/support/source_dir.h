// Where the repository's own files (deploy/ manifests, scripts/, tools/) are
// for tests run from a build tree. Only source_dir.cpp sees the configured
// path, so moving the clone invalidates one object, not every test's (ccache).
#pragma once

#include <string>
#include <string_view>

namespace testsupport {

// The absolute path of `relative` inside the source tree, e.g.
// SourcePath("deploy/kubernetes/csi-attacher/rbac.yaml").
std::string SourcePath(std::string_view relative);

}  // namespace testsupport
