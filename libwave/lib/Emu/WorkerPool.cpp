//===- WorkerPool.cpp - Threads kept from one parallel run to the next ----===//
//
// See WorkerPool.h. Each worker waits on its own condition variable for a
// task; a run hands tasks to idle workers (starting new ones when too few
// are idle) and counts them down. A worker goes back to the idle list when
// its task is done, or ends when the list already holds one per hardware
// thread. The pool is never destroyed (its workers would have to be joined
// while static destructors run); a child process after fork() starts with
// an empty pool, since the workers are not copied into it.
//
//===----------------------------------------------------------------------===//
#include "WorkerPool.h"

#include "llvm/Support/Threading.h"

#include <condition_variable>
#include <mutex>
#include <new>
#include <pthread.h>
#include <thread>
#include <vector>

using namespace llvm;

namespace wave::emu {

namespace {

/// What a run's workers count down.
struct Latch {
  std::mutex Mu;
  std::condition_variable CV;
  unsigned Left = 0;
};

/// One pooled thread and its hand-over slot.
struct Worker {
  std::mutex Mu;
  std::condition_variable CV;
  function_ref<void(unsigned)> Body;
  unsigned Index = 0;
  Latch *Done = nullptr; ///< set while the worker has a task.
};

class Pool {
public:
  static Pool &get() {
    static Pool *P = [] {
      pthread_atfork(nullptr, nullptr, [] { get().forgetAfterFork(); });
      return new Pool;
    }();
    return *P;
  }

  /// Takes an idle worker, or starts one.
  Worker *take() {
    {
      std::lock_guard<std::mutex> Lock(Mu);
      if (!Idle.empty()) {
        Worker *W = Idle.back();
        Idle.pop_back();
        return W;
      }
    }
    auto *W = new Worker;
    try {
      std::thread(&Pool::loop, this, W).detach();
    } catch (...) {
      delete W;
      throw;
    }
    return W;
  }

private:
  void loop(Worker *W) {
    for (;;) {
      Latch *Done;
      {
        std::unique_lock<std::mutex> Lock(W->Mu);
        W->CV.wait(Lock, [&] { return W->Done != nullptr; });
        Done = W->Done;
      }
      W->Body(W->Index);
      {
        std::lock_guard<std::mutex> Lock(W->Mu);
        W->Done = nullptr;
      }
      // Back to the list before the run learns it is done, so that the
      // run's next one finds it idle.
      bool Keep;
      {
        std::lock_guard<std::mutex> Lock(Mu);
        Keep = Idle.size() < MaxIdle;
        if (Keep)
          Idle.push_back(W);
      }
      {
        std::lock_guard<std::mutex> Lock(Done->Mu);
        if (--Done->Left == 0)
          Done->CV.notify_all();
      }
      if (!Keep) {
        delete W;
        return;
      }
    }
  }

  /// In a child after fork(): no worker exists there.
  void forgetAfterFork() {
    new (&Mu) std::mutex();
    Idle.clear();
  }

  std::mutex Mu;
  std::vector<Worker *> Idle;
  const size_t MaxIdle = hardware_concurrency().compute_thread_count();
};

} // namespace

void runOnWorkers(unsigned N, function_ref<void(unsigned)> Body) {
  Latch Done;
  Pool &P = Pool::get();
  // Counts the bodies handed out, so that a failure to start a thread
  // still waits for those.
  auto WaitForStarted = [&] {
    std::unique_lock<std::mutex> Lock(Done.Mu);
    Done.CV.wait(Lock, [&] { return Done.Left == 0; });
  };
  for (unsigned I = 1; I < N; ++I) {
    Worker *W;
    try {
      W = P.take();
    } catch (...) {
      WaitForStarted();
      throw;
    }
    {
      std::lock_guard<std::mutex> Lock(Done.Mu);
      ++Done.Left;
    }
    std::lock_guard<std::mutex> Lock(W->Mu);
    W->Body = Body;
    W->Index = I;
    W->Done = &Done;
    W->CV.notify_one();
  }
  Body(0);
  WaitForStarted();
}

} // namespace wave::emu
