/* What it costs to get a few hundred bytes to a kernel: kernel parameters
 * of growing size against a copy of the same bytes before the launch
 * (from pinned and from pageable memory).  The numbers behind the region
 * descriptors of cuda/classical.cuh's extended launch.  Built by hand on
 * the GPU machine:
 *
 *   nvcc -O2 -std=c++17 -arch=sm_90 bench/cuda/bench-small-upload.cu \
 *       -o /tmp/bench-small-upload && /tmp/bench-small-upload
 *
 * Wall time of launch (+ copy) + cudaStreamSynchronize, median of 2000.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, \
      cudaGetErrorString (e_)); exit (1); } } while (0)

template <int N> struct Params { unsigned char b[N]; };

template <int N>
__global__ void
by_param (const __grid_constant__ Params<N> p, unsigned *out)
{
  if (threadIdx.x == 0 && p.b[blockIdx.x % N] == 255)
    atomicAdd (out, 1u);
}

__global__ void
by_pointer (const unsigned char *p, int n, unsigned *out)
{
  if (threadIdx.x == 0 && p[blockIdx.x % n] == 255)
    atomicAdd (out, 1u);
}

static double
now_us ()
{
  return std::chrono::duration < double, std::micro >
      (std::chrono::steady_clock::now ().time_since_epoch ()).count ();
}

template <class F>
static double
median (F f)
{
  std::vector < double >t;
  for (int i = 0; i < 2200; i++) {
    const double t0 = now_us ();
    f ();
    if (i >= 200)
      t.push_back (now_us () - t0);
  }
  std::sort (t.begin (), t.end ());
  return t[t.size () / 2];
}

template <int N>
static void
param_row (cudaStream_t s, unsigned *out)
{
  Params<N> p;
  memset (&p, 1, sizeof p);
  printf ("params %5d B            %6.1f us\n", N, median ([&] {
            by_param<N> <<< 135, 256, 0, s >>> (p, out);
            CK (cudaStreamSynchronize (s));
          }));
}

int
main ()
{
  cudaStream_t s;
  unsigned *out;
  unsigned char *dev, *pinned, *pageable;
  CK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  CK (cudaMalloc ((void **) &out, 4));
  CK (cudaMalloc ((void **) &dev, 4096));
  CK (cudaHostAlloc ((void **) &pinned, 4096, 0));
  pageable = (unsigned char *) malloc (4096);
  memset (pinned, 1, 4096);
  memset (pageable, 1, 4096);
  cudaDeviceProp prop;
  CK (cudaGetDeviceProperties (&prop, 0));
  printf ("# %s: launch of 135 x 256 threads + sync, median of 2000\n",
      prop.name);
  param_row<64> (s, out);
  param_row<256> (s, out);
  param_row<1024> (s, out);
  param_row<1792> (s, out);
  param_row<2560> (s, out);
  param_row<4000> (s, out);
  for (int n : {256, 1792}) {
    printf ("copy %4d B pinned + launch  %6.1f us\n", n, median ([&] {
              CK (cudaMemcpyAsync (dev, pinned, n, cudaMemcpyHostToDevice, s));
              by_pointer <<< 135, 256, 0, s >>> (dev, n, out);
              CK (cudaStreamSynchronize (s));
            }));
    printf ("copy %4d B pageable + launch %5.1f us\n", n, median ([&] {
              CK (cudaMemcpyAsync (dev, pageable, n, cudaMemcpyHostToDevice,
                      s));
              by_pointer <<< 135, 256, 0, s >>> (dev, n, out);
              CK (cudaStreamSynchronize (s));
            }));
    printf ("mapped %4d B read by the kernel %5.1f us\n", n, median ([&] {
              by_pointer <<< 135, 256, 0, s >>> (pinned, n, out);
              CK (cudaStreamSynchronize (s));
            }));
  }
  return 0;
}
