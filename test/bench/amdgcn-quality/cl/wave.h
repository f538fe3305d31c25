// wave.h - WAVE v0.4 semantics in OpenCL C for the clang side of the
// AMDGCN code quality benchmark (test/bench/amdgcn-quality/README section of
// test/bench/README.md).
//
// Every kernel in this directory is the OpenCL C twin of examples/NAME.wave:
// the same algorithm, the same memory layout (one global byte buffer `mem`,
// the kernel ABI's device-memory base, plus one u32 argument per WAVE
// parameter register: formats/amdgcn-abi.md) and the same operations in the
// same order. This header gives each WAVE instruction that is not a plain C
// operator one helper with the exact formats/isa.md §4 semantics, written the
// way an OpenCL programmer who knows gfx9 would write it, so that clang -O3
// gets a fair chance. What the helpers assume is stated next to each one.
//
// Loops: WAVE loops stay loops (`WAVE_LOOP` = `#pragma unroll 1`) so that
// "instructions in the hottest loop" compares one iteration with one
// iteration. Compile with -DWAVE_BENCH_ALLOW_UNROLL to let clang unroll.
#ifndef WAVE_BENCH_WAVE_H
#define WAVE_BENCH_WAVE_H

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#ifdef WAVE_BENCH_ALLOW_UNROLL
#define WAVE_LOOP
#else
#define WAVE_LOOP _Pragma("unroll 1")
#endif

// Wave width W (sr_wave_width): 64 on gfx9, a compile-time constant.
#define WAVE_W ((uint)__builtin_amdgcn_wavefrontsize())

// --- Special registers (formats/isa.md §3)
// -----------------------------------------
static inline uint sr_thread_id_x(void) { return __builtin_amdgcn_workitem_id_x(); }
static inline uint sr_thread_id_y(void) { return __builtin_amdgcn_workitem_id_y(); }
static inline uint sr_workgroup_id_x(void) { return __builtin_amdgcn_workgroup_id_x(); }
static inline uint sr_workgroup_id_y(void) { return __builtin_amdgcn_workgroup_id_y(); }
// Effective workgroup size: a constant under reqd_work_group_size, as the
// WAVE kernel's .workgroup_size is.
static inline uint sr_workgroup_size_x(void) { return __builtin_amdgcn_workgroup_size_x(); }
// Grid size in workgroups: hidden_block_count_x, the first hidden kernel
// argument of code object v5 (the same argument our ABI reads).
static inline uint sr_grid_size_x(void) {
  return *(constant uint *)__builtin_amdgcn_implicitarg_ptr();
}
// Lane within the wave.
static inline uint sr_lane_id(void) {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
// Wave within a one-dimensional workgroup; uniform, so kept in an SGPR.
static inline uint sr_wave_id(void) {
  return __builtin_amdgcn_readfirstlane(__builtin_amdgcn_workitem_id_x() / WAVE_W);
}
// ceil(threads / W) for a one-dimensional workgroup of THREADS threads.
#define SR_NUM_WAVES(THREADS) (((THREADS) + WAVE_W - 1u) / WAVE_W)

// --- Memory: byte addresses, u32 wrap-around as in `iadd` --------------------
static inline uint dev_ld32(global uchar *mem, uint a) { return *(global uint *)(mem + a); }
static inline void dev_st32(global uchar *mem, uint a, uint v) { *(global uint *)(mem + a) = v; }
static inline uint4 dev_ld128(global uchar *mem, uint a) { return *(global uint4 *)(mem + a); }
static inline void dev_st128(global uchar *mem, uint a, uint4 v) { *(global uint4 *)(mem + a) = v; }
static inline uint lds_ld32(local uchar *lds, uint a) { return *(local uint *)(lds + a); }
static inline void lds_st32(local uchar *lds, uint a, uint v) { *(local uint *)(lds + a) = v; }

// `atomic_add addr, v, .device` without a result: relaxed, device scope.
static inline void dev_atomic_add(global uchar *mem, uint a, uint v) {
  __opencl_atomic_fetch_add((volatile global atomic_uint *)(mem + a), v,
                            __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
}

// `barrier`: every wave of the workgroup arrives, and local memory written
// before it is visible after it (what the examples rely on). This is
// OpenCL's barrier(CLK_LOCAL_MEM_FENCE): workgroup fences on LDS around
// s_barrier (gfx90a and later do not wait for memory at s_barrier).
static inline void wave_barrier(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup", "local");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup", "local");
}

// --- Scalar operations --------------------------------------------------------
static inline float as_f32(uint x) { return __builtin_astype(x, float); }
static inline uint as_u32(float x) { return __builtin_astype(x, uint); }

// `imod`: i32 remainder with the dividend's sign; b == 0 gives 0, and so does
// b == -1 (INT_MIN mod -1 = 0; C leaves both undefined, hence the guard).
static inline uint wave_imod(uint a, uint b) {
  return b + 1u <= 1u ? 0u : (uint)((int)a % (int)b);
}

// `hma2`: per 16-bit half, f32 fused a*b+c, then one rounding to f16 (RNE).
static inline uint wave_hma2(uint a, uint b, uint c) {
  half2 ha = __builtin_astype(a, half2);
  half2 hb = __builtin_astype(b, half2);
  half2 hc = __builtin_astype(c, half2);
  float lo = __builtin_fmaf((float)ha.x, (float)hb.x, (float)hc.x);
  float hi = __builtin_fmaf((float)ha.y, (float)hb.y, (float)hc.y);
  half2 r = (half2)((half)lo, (half)hi);
  return __builtin_astype(r, uint);
}

// `bmul2` / `badd2`: per 16-bit half, widen bf16 to f32 (bits << 16),
// compute in f32, truncate to the upper 16 bits.
static inline uint wave_bmul2(uint a, uint b) {
  uint lo = as_u32(as_f32(a << 16) * as_f32(b << 16));
  uint hi = as_u32(as_f32(a & 0xffff0000u) * as_f32(b & 0xffff0000u));
  return (hi & 0xffff0000u) | (lo >> 16);
}
static inline uint wave_badd2(uint a, uint b) {
  uint lo = as_u32(as_f32(a << 16) + as_f32(b << 16));
  uint hi = as_u32(as_f32(a & 0xffff0000u) + as_f32(b & 0xffff0000u));
  return (hi & 0xffff0000u) | (lo >> 16);
}

// --- Wave operations (formats/isa.md §4.14), wave64
// ----------------------------------- DPP controls (AMDGPU DPP encoding, GFX9).
#define DPP_ROW_SHR(N) (0x110 + (N))
#define DPP_WAVE_SHR1 0x138
#define DPP_ROW_BCAST15 0x142
#define DPP_ROW_BCAST31 0x143

// Inclusive u32 scan over the wave: Hillis-Steele with row_shr 1, 2, 4, 8
// inside each row of 16 lanes, then row_bcast:15 and row_bcast:31 across
// rows (LLVM's AMDGPUAtomicOptimizer builds the same sequence; gfx9 only).
// A source lane out of range reads as 0 (the `old` operand). Every step
// reads only lanes below the reading lane, so the scan is exact when the
// active lanes are a prefix of the wave (the whole wave, or lanes 0..k-1),
// whatever the disabled lanes hold; that is how the examples use it. (A
// scan over an arbitrary active mask needs whole-wave mode, which OpenCL C
// cannot express.)
static inline uint wave_scan_incl_u32(uint v) {
  v += __builtin_amdgcn_update_dpp(0u, v, DPP_ROW_SHR(1), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0u, v, DPP_ROW_SHR(2), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0u, v, DPP_ROW_SHR(4), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0u, v, DPP_ROW_SHR(8), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0u, v, DPP_ROW_BCAST15, 0xa, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0u, v, DPP_ROW_BCAST31, 0xc, 0xf, false);
  return v;
}

// `wave_prefix_sum`: exclusive scan = the inclusive scan shifted up one lane.
static inline uint wave_prefix_sum(uint v) {
  return __builtin_amdgcn_update_dpp(0u, wave_scan_incl_u32(v), DPP_WAVE_SHR1,
                                     0xf, 0xf, false);
}

// `wave_reduce_add`: the last lane of the inclusive scan, read into an SGPR
// (uniform). Exact for a whole wave, which is how the examples use it.
static inline uint wave_reduce_add(uint v) {
  return __builtin_amdgcn_readlane(wave_scan_incl_u32(v), (int)WAVE_W - 1);
}

// `wave_shuffle_xor`: lane l reads lane l ^ m, or 0 when that is >= W.
static inline uint wave_shuffle_xor(uint v, uint m) {
  uint s = sr_lane_id() ^ m;
  uint r = (uint)__builtin_amdgcn_ds_bpermute((int)(s << 2), (int)v);
  return s < WAVE_W ? r : 0u;
}

#endif // WAVE_BENCH_WAVE_H
