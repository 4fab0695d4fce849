/* NVIDIA NPP's image-quality functions on the frames of bench-cuda-compare
 * (1080p 4:2:0 8-bit, "smooth" content with noise and a one-pixel shift,
 * both frames in device memory): nppiPSNR on each plane, nppiSSIM and
 * nppiMSSSIM on luma.  Median and p99 per pair over 300 calls (CUDA events
 * around each call and its synchronisation, as bench-cuda-compare), and
 * the values, to set beside ours (NPP's SSIM is not FFmpeg's nor ssim.m's:
 * docs/reference/cudacompare.md).  A program, not a test; built by meson when the
 * toolkit has NPP (the GPU machine's does; this project's CI does not).
 *
 *   nvcc -O2 -Icore -Icpu/compare -Itests/compare \
 *       bench/compare/bench-npp-compare.cu -lnppist -lnppc -o bench-npp-compare
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>
#include <npp.h>

#include "cuda-compare-frames.h"

#define ITER 300

#define CHECK_NPP(call) do {                                            \
  NppStatus s_ = (call);                                                \
  if (s_ != NPP_SUCCESS) {                                              \
    printf ("%s failed: NPP status %d\n", #call, (int) s_);             \
    return 1;                                                           \
  }                                                                     \
} while (0)

#define CHECK_CUDA(call) do {                                           \
  cudaError_t e_ = (call);                                              \
  if (e_ != cudaSuccess) {                                              \
    printf ("%s failed: %s\n", #call, cudaGetErrorString (e_));         \
    return 1;                                                           \
  }                                                                     \
} while (0)

typedef struct
{
  double p50, p99;
} Times;

/* Times @fn (which queues work on @stream) ITER times after 10 warm-ups. */
template < typename F > static int
time_calls (cudaStream_t stream, F fn, Times * out)
{
  std::vector < double >t (ITER);
  cudaEvent_t e0, e1;
  CHECK_CUDA (cudaEventCreate (&e0));
  CHECK_CUDA (cudaEventCreate (&e1));
  for (int i = 0; i < 10; i++)
    if (fn ())
      return 1;
  CHECK_CUDA (cudaStreamSynchronize (stream));
  for (int i = 0; i < ITER; i++) {
    float ms;
    CHECK_CUDA (cudaEventRecord (e0, stream));
    if (fn ())
      return 1;
    CHECK_CUDA (cudaStreamSynchronize (stream));
    CHECK_CUDA (cudaEventRecord (e1, stream));
    CHECK_CUDA (cudaEventSynchronize (e1));
    CHECK_CUDA (cudaEventElapsedTime (&ms, e0, e1));
    t[i] = ms * 1000.0;
  }
  std::sort (t.begin (), t.end ());
  out->p50 = t[ITER / 2];
  out->p99 = t[ITER * 99 / 100];
  cudaEventDestroy (e0);
  cudaEventDestroy (e1);
  return 0;
}

int
main (void)
{
  TestPair t;
  cudaStream_t stream;
  NppStreamContext ctx;
  cudaDeviceProp prop;
  Npp8u *buf;
  Npp32f *val;
  size_t need = 0, n;
  float host[4];
  Times tp, ts, tm;

  if (!test_have_device ()) {
    printf ("skipped: no CUDA device\n");
    return 77;
  }
  CHECK_CUDA (cudaGetDeviceProperties (&prop, 0));
  CHECK_CUDA (cudaStreamCreate (&stream));
  if (test_pair_new (&t, 1920, 1080, 3, 8, 0, 1)) {
    printf ("cannot allocate the frames\n");
    return 1;
  }
  /* Filled by hand: nppGetStreamContext is deprecated in NPP 12.x. */
  memset (&ctx, 0, sizeof (ctx));
  ctx.hStream = stream;
  CHECK_CUDA (cudaGetDevice (&ctx.nCudaDeviceId));
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  CHECK_CUDA (cudaStreamGetFlags (stream, &ctx.nStreamFlags));

  /* One device buffer for the three functions' scratch. */
  for (int c = 0; c < 3; c++) {
    NppiSize roi = { t.dev.width[c], t.dev.height[c] };
    CHECK_NPP (nppiPSNRGetBufferHostSize_8u_C1R_Ctx (roi, &n, ctx));
    need = std::max (need, n);
  }
  {
    NppiSize roi = { t.dev.width[0], t.dev.height[0] };
    CHECK_NPP (nppiSSIMGetBufferHostSize_8u_C1R_Ctx (roi, &n, ctx));
    need = std::max (need, n);
    CHECK_NPP (nppiMSSSIMGetBufferHostSize_8u_C1R_Ctx (roi, &n, ctx));
    need = std::max (need, n);
  }
  CHECK_CUDA (cudaMalloc (&buf, need));
  CHECK_CUDA (cudaMalloc (&val, 4 * sizeof (Npp32f)));

  auto psnr3 = [&]() -> int {
    for (int c = 0; c < 3; c++) {
      NppiSize roi = { t.dev.width[c], t.dev.height[c] };
      CHECK_NPP (nppiPSNR_8u_C1R_Ctx ((const Npp8u *) t.dev.ref[c],
              (int) t.dev.ref_stride[c], (const Npp8u *) t.dev.dist[c],
              (int) t.dev.dist_stride[c], roi, val + c, buf, ctx));
    }
    return 0;
  };
  auto ssim = [&]() -> int {
    NppiSize roi = { t.dev.width[0], t.dev.height[0] };
    CHECK_NPP (nppiSSIM_8u_C1R_Ctx ((const Npp8u *) t.dev.ref[0],
            (int) t.dev.ref_stride[0], (const Npp8u *) t.dev.dist[0],
            (int) t.dev.dist_stride[0], roi, val, buf, ctx));
    return 0;
  };
  auto msssim = [&]() -> int {
    NppiSize roi = { t.dev.width[0], t.dev.height[0] };
    CHECK_NPP (nppiMSSSIM_8u_C1R_Ctx ((const Npp8u *) t.dev.ref[0],
            (int) t.dev.ref_stride[0], (const Npp8u *) t.dev.dist[0],
            (int) t.dev.dist_stride[0], roi, val, buf, ctx));
    return 0;
  };

  printf ("NPP %d.%d.%d on %s, 1920x1080 4:2:0 8-bit (bench-cuda-compare's "
      "frames), median of %d calls\n\n", NPP_VER_MAJOR, NPP_VER_MINOR,
      NPP_VER_BUILD, prop.name, ITER);
  printf ("| NPP function | us/pair p50 | p99 | value |\n|---|---:|---:|---|\n");
  if (time_calls (stream, psnr3, &tp) || psnr3 ()
      || cudaMemcpy (host, val, 3 * sizeof (float),
          cudaMemcpyDeviceToHost) != cudaSuccess)
    return 1;
  printf ("| nppiPSNR_8u_C1R x 3 planes | %.1f | %.1f | y %.4f u %.4f v %.4f "
      "dB |\n", tp.p50, tp.p99, host[0], host[1], host[2]);
  if (time_calls (stream, ssim, &ts) || ssim ()
      || cudaMemcpy (host, val, sizeof (float),
          cudaMemcpyDeviceToHost) != cudaSuccess)
    return 1;
  printf ("| nppiSSIM_8u_C1R (luma) | %.1f | %.1f | %.6f |\n", ts.p50, ts.p99,
      host[0]);
  if (time_calls (stream, msssim, &tm) || msssim ()
      || cudaMemcpy (host, val, sizeof (float),
          cudaMemcpyDeviceToHost) != cudaSuccess)
    return 1;
  printf ("| nppiMSSSIM_8u_C1R (luma) | %.1f | %.1f | %.6f |\n", tm.p50,
      tm.p99, host[0]);

  cudaFree (buf);
  cudaFree (val);
  test_pair_free (&t);
  cudaStreamDestroy (stream);
  return 0;
}
