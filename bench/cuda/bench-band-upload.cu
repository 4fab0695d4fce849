/* What a banded host-to-device copy costs, signal by signal: the numbers
 * behind cuda/band-upload.cu's choice of how to tell a kernel that a band
 * of rows has arrived.  Built by hand on the GPU machine (not part of the
 * build: it times driver operations, not our kernels):
 *
 *   nvcc -O2 -std=c++17 -arch=sm_90 bench/cuda/bench-band-upload.cu \
 *       -o /tmp/bench-band-upload && /tmp/bench-band-upload
 *
 * A 1920x1080 8-bit plane (and 3840x2160) in pinned memory is copied to a
 * pitched device buffer: whole, in N bands, in N bands each followed by a
 * cuStreamWriteValue32 flag, by a 4-byte flag copy, by an event record;
 * then the whole scheme with a kernel that waits for each band's flag
 * (one poll per band per warp) and reads it.  Wall time of enqueue +
 * cudaStreamSynchronize, median and p99 of 300 after 30 warm-up.  Also
 * bands alternating over two copy streams (one flag per band) and an
 * uneven split (3/4 then 1/4).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, \
      cudaGetErrorString (e_)); exit (1); } } while (0)
#define CKD(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { \
  fprintf (stderr, "%s:%d %s: %d\n", __FILE__, __LINE__, #x, (int) r_); \
  exit (1); } } while (0)

static double
now_us ()
{
  return std::chrono::duration < double, std::micro >
      (std::chrono::steady_clock::now ().time_since_epoch ()).count ();
}

/* Each warp takes a band-sized item, waits for its band's flag, sums a
 * 16-byte word per lane per row of it (a stand-in for a metric's read). */
__global__ void
wait_and_read (const uint4 *dev, size_t pitch_words, int width_words,
    int height, int rows, const unsigned *flag, unsigned base, int per_band,
    unsigned long long *out)
{
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  const int bands_of_4 = (height + 3) / 4;
  const int segs = (width_words + 31) / 32;
  unsigned long long s = 0;

  for (int item = warp; item < bands_of_4 * segs;
      item += gridDim.x * blockDim.x / 32) {
    const int y0 = item / segs * 4, x = item % segs * 32 + lane;
    const int last = min (y0 + 4, height) - 1;
    if (flag && per_band) {
      /* One flag per band, set to the frame's number: the bands of two
       * copy streams may land out of order. */
      for (int b = max (y0 - 1, 0) / rows; b <= last / rows; b++)
        for (;;) {
          unsigned v;
          asm volatile ("ld.acquire.gpu.global.u32 %0, [%1];":"=r" (v)
              :"l" (flag + b):"memory");
          if (v == base)
            break;
          __nanosleep (200);
        }
    } else if (flag) {
      for (;;) {
        unsigned v;
        asm volatile ("ld.acquire.gpu.global.u32 %0, [%1];":"=r" (v)
            :"l" (flag):"memory");
        if ((int) (v - base) >= last / rows + 1)
          break;
        __nanosleep (200);
      }
    }
    for (int y = y0; y <= last; y++)
      if (x < width_words) {
        const uint4 q = __ldg (dev + y * pitch_words + x);
        s += q.x + q.y + q.z + q.w;
      }
  }
  if (s == 42)
    atomicAdd (out, s);
}

/* Zero copy: the SMs read the pinned host plane over PCIe themselves
 * (16-byte loads, many in flight per thread), into the device buffer. */
__global__ void
pull_rows (const uint4 *host, size_t host_words, uint4 *dev,
    size_t pitch_words, int width_words, int height)
{
  const size_t n = (size_t) width_words * height;
  const size_t stride = (size_t) gridDim.x * blockDim.x;
  size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
      const size_t j = i + k * stride;
      v[k] = host[j / width_words * host_words + j % width_words];
    }
#pragma unroll
    for (int k = 0; k < 4; k++) {
      const size_t j = i + k * stride;
      dev[j / width_words * pitch_words + j % width_words] = v[k];
    }
  }
  for (; i < n; i += stride)
    dev[i / width_words * pitch_words + i % width_words] =
        host[i / width_words * host_words + i % width_words];
}

typedef CUresult (*WriteValue) (CUstream, CUdeviceptr, cuuint32_t, unsigned);

struct Setup
{
  int w, h;
  uint8_t *host, *dev;
  size_t pitch;
  cudaStream_t copy, copy2, kern;
  unsigned *flag;
  unsigned *host_vals;
  unsigned next;
  unsigned long long *out;
  cudaEvent_t ev;
};

enum Mode { WHOLE, BANDS, BANDS_WV, BANDS_MEMCPY, BANDS_EVENT, KERNEL_AFTER,
  KERNEL_WV, KERNEL_MEMCPY, BANDS2_WV, KERNEL2_WV, UNEVEN_WV, PULL };
static const char *const mode_names[] = { "whole copy", "bands", "bands+writevalue",
  "bands+flag-memcpy", "bands+event", "copy, then kernel", "overlap (writevalue)",
  "overlap (flag memcpy)", "2 streams+writevalue", "overlap 2 streams",
  "overlap 3/4 + 1/4", "zero-copy pull (blocks)" };

static void
once (Setup & s, Mode m, int bands)
{
  const int rows = (s.h + bands - 1) / bands;
  const int nb = (s.h + rows - 1) / rows;
  const unsigned base = s.next;

  static WriteValue wv;
  if (!wv) {
    cudaDriverEntryPointQueryResult q;
    CK (cudaGetDriverEntryPointByVersion ("cuStreamWriteValue32",
            (void **) &wv, 12000, cudaEnableDefault, &q));
  }
  const int words = (s.w + 15) / 16;
  if (m == BANDS2_WV || m == KERNEL2_WV) {
    /* Bands alternate between two copy streams, each band's flag set to
     * the frame's number after it. */
    const unsigned frame = ++s.next;
    CK (cudaEventRecord (s.ev, s.kern));
    CK (cudaStreamWaitEvent (s.copy, s.ev, 0));
    CK (cudaStreamWaitEvent (s.copy2, s.ev, 0));
    for (int k = 0; k < nb; k++) {
      const int y = k * rows, n = std::min (rows, s.h - y);
      cudaStream_t st = k % 2 ? s.copy2 : s.copy;
      CK (cudaMemcpy2DAsync (s.dev + y * s.pitch, s.pitch, s.host + y * s.w,
              s.w, s.w, n, cudaMemcpyHostToDevice, st));
      CKD (wv ((CUstream) st, (CUdeviceptr) (s.flag + 16 + k), frame, 0));
    }
    if (m == KERNEL2_WV) {
      wait_and_read <<< 132, 256, 0, s.kern >>> ((const uint4 *) s.dev,
          s.pitch / 16, words, s.h, rows, s.flag + 16, frame, 1, s.out);
      CK (cudaStreamSynchronize (s.kern));
    }
    CK (cudaStreamSynchronize (s.copy));
    CK (cudaStreamSynchronize (s.copy2));
    return;
  }
  if (m == PULL) {
    /* @bands: blocks per SM. */
    pull_rows <<< 132 * bands, 256, 0, s.kern >>> ((const uint4 *) s.host,
        s.w / 16, (uint4 *) s.dev, s.pitch / 16, s.w / 16, s.h);
    CK (cudaStreamSynchronize (s.kern));
    return;
  }
  if (m == UNEVEN_WV) {
    /* Two bands: three quarters, then the rest. */
    const int split = s.h * 3 / 4;
    CK (cudaMemcpy2DAsync (s.dev, s.pitch, s.host, s.w, s.w, split,
            cudaMemcpyHostToDevice, s.copy));
    CKD (wv ((CUstream) s.copy, (CUdeviceptr) s.flag, s.next + 1, 0));
    CK (cudaMemcpy2DAsync (s.dev + split * s.pitch, s.pitch,
            s.host + (size_t) split * s.w, s.w, s.w, s.h - split,
            cudaMemcpyHostToDevice, s.copy));
    CKD (wv ((CUstream) s.copy, (CUdeviceptr) s.flag, s.next + 2, 0));
    wait_and_read <<< 132, 256, 0, s.kern >>> ((const uint4 *) s.dev,
        s.pitch / 16, words, s.h, split, s.flag, base, 0, s.out);
    s.next += 2;
    CK (cudaStreamSynchronize (s.kern));
    CK (cudaStreamSynchronize (s.copy));
    return;
  }
  if (m == WHOLE || m == KERNEL_AFTER) {
    CK (cudaMemcpy2DAsync (s.dev, s.pitch, s.host, s.w, s.w, s.h,
            cudaMemcpyHostToDevice, s.copy));
  } else {
    for (int k = 0; k < nb; k++) {
      const int y = k * rows, n = std::min (rows, s.h - y);
      CK (cudaMemcpy2DAsync (s.dev + y * s.pitch, s.pitch, s.host + y * s.w,
              s.w, s.w, n, cudaMemcpyHostToDevice, s.copy));
      const unsigned v = s.next + k + 1;
      if (m == BANDS_WV || m == KERNEL_WV) {
        CKD (wv ((CUstream) s.copy, (CUdeviceptr) s.flag, v, 0));
      } else if (m == BANDS_MEMCPY || m == KERNEL_MEMCPY) {
        s.host_vals[k] = v;
        CK (cudaMemcpyAsync (s.flag, &s.host_vals[k], 4,
                cudaMemcpyHostToDevice, s.copy));
      } else if (m == BANDS_EVENT) {
        CK (cudaEventRecord (s.ev, s.copy));
      }
    }
    s.next += nb;
  }
  if (m == KERNEL_AFTER) {
    CK (cudaStreamSynchronize (s.copy));
    wait_and_read <<< 132, 256, 0, s.kern >>> ((const uint4 *) s.dev,
        s.pitch / 16, words, s.h, s.h, nullptr, 0, 0, s.out);
    CK (cudaStreamSynchronize (s.kern));
    return;
  }
  if (m == KERNEL_WV || m == KERNEL_MEMCPY) {
    wait_and_read <<< 132, 256, 0, s.kern >>> ((const uint4 *) s.dev,
        s.pitch / 16, words, s.h, rows, s.flag, base, 0, s.out);
    CK (cudaStreamSynchronize (s.kern));
  }
  CK (cudaStreamSynchronize (s.copy));
}

int
main ()
{
  CK (cudaSetDevice (0));
  cudaDeviceProp p;
  CK (cudaGetDeviceProperties (&p, 0));
  printf ("# %s; wall us of enqueue + sync, p50 / p99 of 300\n", p.name);
  printf ("%-10s %-24s %6s %9s %9s\n", "size", "mode", "bands", "p50", "p99");
  const int sizes[][2] = { {1920, 1080}, {3840, 2160} };
  for (auto & sz:sizes) {
    Setup s = { };
    s.w = sz[0];
    s.h = sz[1];
    CK (cudaHostAlloc ((void **) &s.host, (size_t) s.w * s.h, 0));
    for (size_t i = 0; i < (size_t) s.w * s.h; i++)
      s.host[i] = (uint8_t) (i * 2654435761u >> 24);
    CK (cudaMallocPitch ((void **) &s.dev, &s.pitch, s.w, s.h));
    CK (cudaStreamCreateWithFlags (&s.copy, cudaStreamNonBlocking));
    CK (cudaStreamCreateWithFlags (&s.copy2, cudaStreamNonBlocking));
    CK (cudaStreamCreateWithFlags (&s.kern, cudaStreamNonBlocking));
    CK (cudaMalloc ((void **) &s.flag, 64 * 4));
    CK (cudaMemset (s.flag, 0, 64 * 4));
    CK (cudaHostAlloc ((void **) &s.host_vals, 64 * 4, 0));
    CK (cudaMalloc ((void **) &s.out, 8));
    CK (cudaEventCreateWithFlags (&s.ev, cudaEventDisableTiming));
    for (int m = WHOLE; m <= PULL; m++)
      for (int bands:{2, 4, 8, 16}) {
        if ((m == WHOLE || m == KERNEL_AFTER || m == UNEVEN_WV) && bands != 2)
          continue;
        std::vector < double >t;
        for (int i = 0; i < 330; i++) {
          const double t0 = now_us ();
          once (s, (Mode) m, bands);
          if (i >= 30)
            t.push_back (now_us () - t0);
        }
        std::sort (t.begin (), t.end ());
        printf ("%4dx%-5d %-24s %6d %9.1f %9.1f\n", s.w, s.h, mode_names[m],
            m == WHOLE || m == KERNEL_AFTER ? 1 : bands, t[t.size () / 2],
            t[t.size () * 99 / 100]);
      }
  }
  return 0;
}
