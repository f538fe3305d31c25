//===- WorkerPool.h - Threads kept from one parallel run to the next -*- C++ -*-=//
//
// Private to the emulator. A parallel run (ParallelRun.cpp, EmuConfig::Jobs
// > 1) needs Jobs - 1 threads besides its caller's for as long as it runs;
// starting and joining them costs tens of microseconds, as much as a small
// launch of the host runtime (wave/Host/Runtime.h) takes in all. The pool
// keeps finished threads waiting for the next run instead, up to one per
// hardware thread, and starts more when a run needs more than are idle.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_EMU_WORKERPOOL_H
#define WAVE_LIB_EMU_WORKERPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace wave::emu {

/// Runs \p Body(1) .. \p Body(\p N - 1) on pooled threads, each on a thread
/// of its own, and \p Body(0) on the calling thread; returns when all N
/// have returned. Bodies may wait for each other (each has its own thread).
/// Safe to call from several threads at once. \p Body must not throw.
/// Throws std::system_error when a thread cannot be started (as
/// std::thread does); the bodies started by then have finished.
void runOnWorkers(unsigned N, llvm::function_ref<void(unsigned)> Body);

} // namespace wave::emu

#endif // WAVE_LIB_EMU_WORKERPOOL_H
