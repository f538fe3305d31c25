//===- ReadFileTest.cpp - Bounded reading of whole inputs -----------------===//
//
// readFileBounded (wave/Support/ReadFile.h) on regular files and on pipes:
// the bound holds for both, and a stream with the wrong magic is read no
// further than its first chunk.
//
//===----------------------------------------------------------------------===//
#include "wave/Support/ReadFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <csignal>
#include <string>
#include <thread>
#include <unistd.h>

using namespace wave;

namespace {

/// Writes \p Size bytes of \p Fill into a pipe from a thread and returns the
/// "/dev/fd/N" path of its read end; the caller joins \p Writer and closes
/// the read end.
std::string pipeOf(size_t Size, char Fill, std::thread &Writer, int &ReadFD) {
  int P[2];
  EXPECT_EQ(::pipe(P), 0);
  ReadFD = P[0];
  Writer = std::thread([W = P[1], Size, Fill] {
    std::string Chunk(4096, Fill);
    size_t Left = Size;
    while (Left) {
      ssize_t N = ::write(W, Chunk.data(), std::min(Left, Chunk.size()));
      if (N <= 0)
        break; // the reader stopped (EPIPE)
      Left -= size_t(N);
    }
    ::close(W);
  });
  return "/dev/fd/" + std::to_string(P[0]);
}

struct IgnoreSigpipe {
  IgnoreSigpipe() { Old = std::signal(SIGPIPE, SIG_IGN); }
  ~IgnoreSigpipe() { std::signal(SIGPIPE, Old); }
  void (*Old)(int);
};

TEST(ReadFileBounded, RegularFileUpToTheBound) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("bounded", "bin", Path));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << std::string(1000, 'x');
  }
  auto Ok = readFileBounded(Path, 1000);
  ASSERT_TRUE(static_cast<bool>(Ok));
  EXPECT_EQ((*Ok)->getBufferSize(), 1000u);
  auto Big = readFileBounded(Path, 999);
  ASSERT_FALSE(static_cast<bool>(Big));
  EXPECT_EQ(llvm::toString(Big.takeError()), "larger than 999 bytes");
  llvm::sys::fs::remove(Path);
}

TEST(ReadFileBounded, StreamPastTheBoundFails) {
  IgnoreSigpipe Guard;
  std::thread Writer;
  int FD;
  std::string Path = pipeOf(300 * 1024, 'n', Writer, FD);
  auto Buf = readFileBounded(Path, 100 * 1024);
  ::close(FD);
  Writer.join();
  ASSERT_FALSE(static_cast<bool>(Buf));
  EXPECT_EQ(llvm::toString(Buf.takeError()), "larger than 102400 bytes");
}

TEST(ReadFileBounded, StreamWithinTheBoundIsReadWhole) {
  std::thread Writer;
  int FD;
  std::string Path = pipeOf(200 * 1024, 'n', Writer, FD);
  auto Buf = readFileBounded(Path, 200 * 1024);
  Writer.join();
  ::close(FD);
  ASSERT_TRUE(static_cast<bool>(Buf));
  EXPECT_EQ((*Buf)->getBufferSize(), 200u * 1024);
}

TEST(ReadFileBounded, StreamWithTheWrongPrefixStopsAfterOneChunk) {
  IgnoreSigpipe Guard;
  std::thread Writer;
  int FD;
  std::string Path = pipeOf(1 << 20, '\0', Writer, FD);
  auto Buf = readFileBounded(Path, MaxInputBytes, "WAVE");
  ::close(FD);
  Writer.join();
  ASSERT_TRUE(static_cast<bool>(Buf));
  EXPECT_GE((*Buf)->getBufferSize(), 4u);
  EXPECT_LE((*Buf)->getBufferSize(), 64u * 1024);
}

} // namespace
