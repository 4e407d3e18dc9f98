#include "tests/integration/image/image_root.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "tests/support/files.h"
#include "tests/support/process.h"
#include "tests/support/source_dir.h"

namespace image_it {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::unique_ptr<ImageRoot> Build(const std::string& binary_path) {
  const std::string name = std::filesystem::path(binary_path).filename();
  auto dir = testsupport::MakeTempDir("image-" + name + "-");
  if (!dir.ok()) {
    ADD_FAILURE() << dir.error().message;
    return nullptr;
  }
  const std::string script = testsupport::SourcePath("scripts/image-rootfs.sh");
  const std::string log = *dir + "/image-rootfs.log";
  auto process =
      testsupport::Process::Spawn({.argv = {script, binary_path, *dir}, .log_file = log});
  if (!process.ok()) {
    ADD_FAILURE() << process.error().message;
    return nullptr;
  }
  const int status = (*process)->Wait();
  const std::string output = ReadAll(log);
  std::cerr << output;
  if (status != 0 || output.find("ROOTFS=" + *dir + "/root") == std::string::npos) {
    ADD_FAILURE() << script << " " << binary_path << " failed (exit " << status << "):\n" << output;
    std::filesystem::remove_all(*dir);
    return nullptr;
  }
  return std::make_unique<ImageRoot>(*dir, *dir + "/root", name);
}

}  // namespace

const ImageRoot* ImageRoot::Get(const std::string& binary_path) {
  static std::map<std::string, std::unique_ptr<ImageRoot>> roots;
  auto& root = roots[binary_path];
  if (!root) root = Build(binary_path);
  return root.get();
}

ImageRoot::~ImageRoot() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string ImageRoot::Launcher(const std::vector<std::string>& shared_dirs) const {
  static int launchers = 0;
  const std::string path = dir_ + "/launch-" + std::to_string(++launchers);
  std::ofstream out(path);
  out << "#!/bin/sh\nexec " << testsupport::SourcePath("scripts/image-run.sh") << " " << root_;
  for (const auto& dir : shared_dirs) out << " '" << dir << "'";
  out << " -- /" << name_ << " \"$@\"\n";
  out.close();
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

void OpenToImageUser(const std::string& dir) {
  namespace fs = std::filesystem;
  constexpr auto kRead = fs::perms::group_read | fs::perms::others_read;
  constexpr auto kSearch = fs::perms::group_exec | fs::perms::others_exec;
  constexpr auto kWrite = fs::perms::group_write | fs::perms::others_write;
  std::error_code ignored;
  fs::permissions(dir, kRead | kSearch, fs::perm_options::add, ignored);
  for (const auto& entry : fs::recursive_directory_iterator(dir, ignored)) {
    if (entry.is_directory(ignored)) {
      fs::permissions(entry.path(), kRead | kSearch, fs::perm_options::add, ignored);
    } else if (entry.is_socket(ignored)) {
      fs::permissions(entry.path(), kRead | kWrite, fs::perm_options::add, ignored);
    } else {
      fs::permissions(entry.path(), kRead, fs::perm_options::add, ignored);
    }
  }
}

}  // namespace image_it
