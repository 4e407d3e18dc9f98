// ImageRoot: the root filesystem of a binary's image, built by
// scripts/image-rootfs.sh exactly as the Dockerfile's runtime stage (Debian
// minbase, deploy/image/runtime-packages.txt, the binary as /<name>), and a way
// to run the binary from it as the image does (scripts/image-run.sh: chroot,
// user 65532:65532). One root per binary per test process, removed at exit.
// Needs root; Get fails the test saying why the root could not be built.
#pragma once

#include <string>
#include <vector>

namespace image_it {

class ImageRoot {
 public:
  // The root for the binary at `binary_path` (built on first use); null after
  // failing the test with the script's output.
  static const ImageRoot* Get(const std::string& binary_path);

  // The path of an executable script that runs /<name> from this root with
  // its arguments, `shared_dirs` bind-mounted at their own paths: what test
  // fixtures start in place of the binary.
  std::string Launcher(const std::vector<std::string>& shared_dirs) const;

  const std::string& root() const { return root_; }
  const std::string& name() const { return name_; }

  ImageRoot(std::string dir, std::string root, std::string name)
      : dir_(std::move(dir)), root_(std::move(root)), name_(std::move(name)) {}
  ~ImageRoot();
  ImageRoot(const ImageRoot&) = delete;
  ImageRoot& operator=(const ImageRoot&) = delete;

 private:
  std::string dir_;   // holds root_ and the launchers
  std::string root_;  // <dir_>/root
  std::string name_;  // the binary's name, /<name_> in the root
};

// Makes everything under `dir` readable (and directories searchable) by
// others, so the image's user 65532 can read kubeconfigs, CA files and
// connect to sockets a root-run test created (sockets get write access too).
void OpenToImageUser(const std::string& dir);

}  // namespace image_it
