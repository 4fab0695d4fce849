/* A host stand-in for the CUDA runtime, for checking the logic of
 * cuda/compare's VMAF kernels without a GPU (run-vmaf-emu.sh): device
 * memory is host memory, a launch runs its blocks one after another; a
 * kernel with barriers runs a block's threads as real threads (a pool of
 * 256), the others thread by thread in the caller.  The host's arithmetic,
 * not the device's: it checks indices, integer steps and reductions.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once
#include <atomic>
#include <barrier>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>
#include <climits>
#include <cmath>
struct dim3 { unsigned x, y, z; dim3 (unsigned a = 1, unsigned b = 1, unsigned c = 1) : x (a), y (b), z (c) {} };
typedef void *cudaStream_t;
typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorMemoryAllocation = 2, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(x)
#define __constant__
#define __shared__ static
extern thread_local dim3 threadIdx, blockIdx;
extern dim3 gridDim, blockDim;
void emu_run (dim3 g, unsigned threads, bool threaded, std::function<void ()> f);
void emu_sync ();
template <class F> void emu_launch (dim3 g, unsigned b, size_t, cudaStream_t, bool t, F f) { emu_run (g, b, t, f); }
#define __syncthreads() emu_sync ()
static inline int __clz (unsigned v) { return v ? __builtin_clz (v) : 32; }
static inline int __clzll (unsigned long long v) { return v ? __builtin_clzll (v) : 64; }
static inline double __dmul_rn (double a, double b) { volatile double r = a * b; return r; }
static inline double __dsub_rn (double a, double b) { volatile double r = a - b; return r; }
static inline unsigned long long atomicAdd (unsigned long long *p, unsigned long long v) { return __atomic_fetch_add (p, v, __ATOMIC_SEQ_CST); }
static inline const char *cudaGetErrorString (cudaError_t) { return "emu"; }
static inline cudaError_t cudaMalloc (void **p, size_t n) { *p = malloc (n ? n : 1); return *p ? 0 : 2; }
static inline cudaError_t cudaMallocHost (void **p, size_t n) { return cudaMalloc (p, n); }
static inline cudaError_t cudaFree (void *p) { free (p); return 0; }
static inline cudaError_t cudaFreeHost (void *p) { free (p); return 0; }
static inline cudaError_t cudaMemcpy (void *d, const void *s, size_t n, int) { memcpy (d, s, n); return 0; }
static inline cudaError_t cudaMemcpyAsync (void *d, const void *s, size_t n, int, cudaStream_t) { memcpy (d, s, n); return 0; }
static inline cudaError_t cudaMemsetAsync (void *d, int v, size_t n, cudaStream_t) { memset (d, v, n); return 0; }
static inline cudaError_t cudaStreamSynchronize (cudaStream_t) { return 0; }
static inline cudaError_t cudaGetLastError () { return 0; }
static inline cudaError_t cudaGetDeviceCount (int *n) { *n = 1; return 0; }
