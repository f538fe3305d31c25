//===- ParallelRun.cpp - Workgroups run in parallel, committed in order ---===//
//
// EmulatorImpl::runParallel (wave-run --jobs N): batches of consecutive
// workgroups claimed by N threads, each run directly when it is the oldest
// and speculatively through a SpeculativeMemory otherwise, and committed in
// grid order, so that the result is that of formats/isa.md §4.2's one
// workgroup after another (Speculation.h). Each thread keeps its part of
// the run's JobsProfile (wave-run --profile-jobs). The threads come from
// WorkerPool.h.
//
//===----------------------------------------------------------------------===//
#include "EmulatorImpl.h"
#include "WorkerPool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

using namespace llvm;

namespace wave::emu {

Error EmulatorImpl::runParallel(uint64_t NumGroups, unsigned Threads) {
  constexpr uint64_t TargetSteps = 1 << 14, MaxBatch = 4096;
  // Speculation.h: batches of workgroups run Threads at a time and commit
  // in grid order; the commit of batch [G0, G1) has tick G1, the number of
  // workgroups committed after it.
  // calloc: pages of the ticks are touched only as granules are stamped or
  // validated, not all of them before the first workgroup starts.
  std::unique_ptr<uint32_t[], decltype(&std::free)> WriteTick(
      static_cast<uint32_t *>(std::calloc(
          std::max<size_t>(1, (Device.size() + GranuleSize - 1) >> GranuleLog),
          sizeof(uint32_t))),
      &std::free);
  if (!WriteTick)
    throw std::bad_alloc();
  std::atomic<uint64_t> NextClaim{0}, Committed{0};
  std::atomic<bool> Cancel{false};

  /// A finished batch waiting for its turn to commit.
  struct Finished {
    WorkgroupRunner *R;
    uint64_t G0, G1;
    bool Ok;
    /// It ran directly from its start (it was the oldest when claimed).
    bool Oldest;
    /// The thread whose runner R is (an index into Free).
    unsigned Owner;
  };
  std::mutex Mu;
  std::condition_variable Freed;
  // Guarded by Mu: finished batches by first workgroup, whether a thread
  // is committing them, each thread's runners not holding one, and the end.
  std::map<uint64_t, Finished> Waiting;
  bool Committing = false, Stop = false;
  unsigned Committer = 0; ///< the thread committing, while Committing.
  std::vector<std::vector<WorkgroupRunner *>> Free(Threads);
  std::optional<EmuError> Failure;
  // Each thread's own entry, read after the threads are joined.
  Profile.Threads.assign(Threads, JobsProfile::Thread());
  using Clock = std::chrono::steady_clock;
  auto Since = [](Clock::time_point T0) {
    return std::chrono::duration<double>(Clock::now() - T0).count();
  };

  // Runs workgroups [G0, G1) on R in mode M; false when one stopped early.
  auto RunBatch = [&](WorkgroupRunner &R, uint64_t G0, uint64_t G1, MemMode M) {
    R.begin(M);
    for (uint64_t G = G0; G != G1; ++G)
      if (!R.runWorkgroup(groupId(G)))
        return false;
    return true;
  };

  // Commits batches in grid order while the next one has finished. One
  // thread at a time does it (Committing), outside the lock: a batch that
  // must run again directly takes a while.
  auto CommitReady = [&](std::unique_lock<std::mutex> &Lock, unsigned Me) {
    if (Committing)
      return;
    Committing = true;
    Committer = Me;
    for (;;) {
      auto It = Waiting.find(Committed.load(std::memory_order_relaxed));
      if (It == Waiting.end() || Stop)
        break;
      Finished F = It->second;
      Waiting.erase(It);
      Lock.unlock();
      WorkgroupRunner &R = *F.R;
      JobsProfile::Thread &P = Profile.Threads[Me];
      // Every older batch has committed: nothing else commits meanwhile.
      if (!F.Oldest && !R.Promoted) {
        Clock::time_point T0 = Clock::now();
        bool GaveUp = !F.Ok && R.Spec.gaveUp();
        bool Valid = !GaveUp && R.Spec.valid(WriteTick.get(), R.StartTick);
        P.ValidateSeconds += Since(T0);
        T0 = Clock::now();
        if (!Valid) {
          ++(GaveUp ? P.RerunGaveUp : P.RerunStale);
          R.StartTick = uint32_t(F.G0);
          F.Ok = RunBatch(R, F.G0, F.G1, MemMode::Marked);
          P.RerunSeconds += Since(T0);
        } else {
          ++P.Committed;
          R.Spec.commit(Device.data(), WriteTick.get(), R.Tick);
          P.CommitSeconds += Since(T0);
        }
      }
      absorb(R.Stats, R.OpCount);
      // A failed batch is never published as committed, so that no younger
      // run can become the oldest and write device memory.
      if (F.Ok)
        Committed.store(F.G1, std::memory_order_release);
      else
        Cancel.store(true);
      Lock.lock();
      if (!F.Ok) {
        Failure = std::move(*R.Fault);
        Stop = true;
      }
      Free[F.Owner].push_back(F.R);
      Freed.notify_all();
    }
    Committing = false;
    Freed.notify_all();
  };

  // Threads that got at least one runner; the others leave at once.
  std::atomic<unsigned> Running{0};
  auto Work = [&](unsigned Me) {
    JobsProfile::Thread &P = Profile.Threads[Me];
    // Each thread allocates its own runners, away from the others' memory,
    // as many as memory allows.
    std::vector<std::unique_ptr<WorkgroupRunner>> Mine;
    for (unsigned K = 0; K != RunnersPerThread; ++K) {
      try {
        Mine.push_back(std::make_unique<WorkgroupRunner>(*this));
      } catch (const std::bad_alloc &) {
        break;
      }
      WorkgroupRunner &R = *Mine.back();
      R.WriteTick = WriteTick.get();
      R.Cancel = &Cancel;
      R.Committed = &Committed;
    }
    if (Mine.empty())
      return;
    ++Running;
    {
      std::lock_guard<std::mutex> Lock(Mu);
      for (auto &R : Mine)
        Free[Me].push_back(R.get());
    }
    // Workgroups are claimed in batches of consecutive ones, sized so that
    // a batch is about TargetSteps steps: small workgroups would otherwise
    // spend more time waiting for their turn than running.
    uint64_t Batch = 1;
    for (;;) {
      WorkgroupRunner *RP;
      {
        std::unique_lock<std::mutex> Lock(Mu);
        Clock::time_point T0 = Clock::now();
        Freed.wait(Lock, [&] { return !Free[Me].empty() || Stop; });
        P.WaitSeconds += Since(T0);
        if (Stop)
          break;
        RP = Free[Me].back();
        Free[Me].pop_back();
      }
      WorkgroupRunner &R = *RP;
      uint64_t G0 = NextClaim.fetch_add(Batch);
      if (G0 >= NumGroups || Cancel.load()) {
        std::lock_guard<std::mutex> Lock(Mu);
        Free[Me].push_back(RP);
        break;
      }
      uint64_t G1 = std::min(G0 + Batch, NumGroups);
      // Everything committed so far is visible from here on.
      uint64_t Seen = Committed.load(std::memory_order_acquire);
      R.StartTick = uint32_t(Seen);
      R.Tick = uint32_t(G1);
      R.Group = G0;
      bool Oldest = Seen == G0;
      Clock::time_point T0 = Clock::now();
      bool Ok =
          RunBatch(R, G0, G1, Oldest ? MemMode::Marked : MemMode::Speculative);
      P.RunSeconds += Since(T0);
      ++P.Batches;
      P.Workgroups += G1 - G0;
      P.SpeculativeBatches += !Oldest;
      // The next batch: about TargetSteps steps, and well within the
      // granules a speculative run may touch.
      uint64_t Steps = 0;
      for (uint64_t N : R.OpCount)
        Steps += N;
      uint64_t Done = G1 - G0;
      uint64_t PerGroup = std::max<uint64_t>(1, Steps / Done);
      Batch = std::clamp<uint64_t>(TargetSteps / PerGroup, 1, MaxBatch);
      // Near the end, smaller batches keep every thread busy.
      Batch = std::min<uint64_t>(
          Batch, std::max<uint64_t>(1, (NumGroups - G1) / (4 * Threads)));
      // A quarter of each of a speculative run's bounds, as far as this
      // batch tells.
      auto Within = [&](uint64_t Bound, uint64_t Used) {
        if (!Oldest && Used)
          Batch = std::min<uint64_t>(
              Batch, std::max<uint64_t>(1, Bound / 4 * Done / Used));
      };
      Within(SpeculativeMemory::MaxGranules, R.Spec.writtenGranules());
      Within(SpeculativeMemory::MaxReadGranules, R.Spec.readGranules());
      std::unique_lock<std::mutex> Lock(Mu);
      Waiting.emplace(G0, Finished{RP, G0, G1, Ok, Oldest, Me});
      CommitReady(Lock, Me);
    }
    // Wait until no batch of this thread's runners is still to commit:
    // whoever commits reads them.
    std::unique_lock<std::mutex> Lock(Mu);
    Clock::time_point T0 = Clock::now();
    Freed.wait(Lock, [&] { return Free[Me].size() == Mine.size() || Stop; });
    P.WaitSeconds += Since(T0);
    if (Stop) {
      // A failure stopped the commits: the waiting batches are dropped, but
      // a thread may still be committing one of them.
      Freed.wait(Lock, [&] { return !Committing; });
    }
  };

  // Memory that runs out while a batch runs stops everything, cleanly: the
  // failing thread's batch never commits, so every other one is told to
  // stop, and a commit it was making is given up. The caller's thread then
  // throws std::bad_alloc, as a sequential run would.
  std::atomic<bool> OutOfMemory{false};
  auto Guarded = [&](unsigned Me) {
    try {
      Work(Me);
    } catch (const std::bad_alloc &) {
      std::lock_guard<std::mutex> Lock(Mu);
      OutOfMemory = true;
      Stop = true;
      Cancel.store(true);
      if (Committer == Me)
        Committing = false;
      Freed.notify_all();
    }
  };
  Clock::time_point Start = Clock::now();
  runOnWorkers(Threads, Guarded);
  Profile.WallSeconds = Since(Start);
  if (OutOfMemory || !Running)
    throw std::bad_alloc();
  if (Failure)
    return make_error<EmuError>(std::move(*Failure));
  return Error::success();
}

} // namespace wave::emu
