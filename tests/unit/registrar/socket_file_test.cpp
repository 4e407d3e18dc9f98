// The registration socket's file (docs/node-sidecars.md §3.2 step 7, §3.5).
#include "registrar/socket_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "tests/support/temp_dir.h"

namespace registrar {
namespace {

// A bound unix socket file at `path` (the descriptor closed, the file kept).
void MakeSocketFile(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ::close(fd);
}

TEST(RegistrationSocketPathTest, JoinsDirectoryAndDriverName) {
  EXPECT_EQ(RegistrationSocketPath("/registration", "hostpath.csi.k8s.io"),
            "/registration/hostpath.csi.k8s.io-reg.sock");
}

TEST(SocketFileTest, MissingIsFalseSocketIsTrueAnythingElseIsAnError) {
  test::TempDir dir;
  const std::string sock = (dir.path() / "a.sock").string();
  EXPECT_FALSE(*SocketExists(sock));
  MakeSocketFile(sock);
  EXPECT_TRUE(*SocketExists(sock));
  const std::string file = dir.Write("plain", "x");
  base::Result<bool> exists = SocketExists(file);
  ASSERT_FALSE(exists.ok());
  EXPECT_THAT(exists.error().message, ::testing::StartsWith("file exists in socketPath " + file +
                                                            " but it's not a socket."));
}

// §3.2 step 7: a stale socket is removed; a regular file is left and refused.
TEST(SocketFileTest, StaleSocketIsRemovedButARegularFileIsRefused) {
  test::TempDir dir;
  const std::string sock = (dir.path() / "a.sock").string();
  MakeSocketFile(sock);
  EXPECT_TRUE(RemoveStaleSocket(sock).ok());
  EXPECT_FALSE(std::filesystem::exists(sock));
  EXPECT_TRUE(RemoveStaleSocket(sock).ok()) << "nothing there is fine";
  const std::string file = dir.Write("plain", "x");
  EXPECT_FALSE(RemoveStaleSocket(file).ok());
  EXPECT_TRUE(std::filesystem::exists(file));
}

// §3.5: SIGTERM's clean-up ignores a socket that is already gone.
TEST(SocketFileTest, RemoveSocketIgnoresMissingFile) {
  test::TempDir dir;
  EXPECT_TRUE(RemoveSocket((dir.path() / "gone.sock").string()).ok());
}

}  // namespace
}  // namespace registrar
