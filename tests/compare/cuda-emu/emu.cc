/* The launches of the host stand-in (cuda_runtime.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cuda_runtime.h"
thread_local dim3 threadIdx, blockIdx;
dim3 gridDim, blockDim;
/* A pool of 256 workers for the kernels with barriers: one block at a
 * time, start and end barriers around it. */
static std::barrier<> *inner, *gate;
static std::function<void ()> *job;
static dim3 cur_block;
static bool quit;
static std::vector<std::thread> pool;
void emu_sync () { inner->arrive_and_wait (); }

/* At exit: the workers released and gone before the barriers are. */
static void
stop_pool ()
{
  quit = true;
  gate->arrive_and_wait ();
  std::this_thread::sleep_for (std::chrono::milliseconds (50));
}

static void
start_pool ()
{
  static std::barrier<> in (256), g (257);
  inner = &in;
  gate = &g;
  for (unsigned t = 0; t < 256; t++) {
    pool.emplace_back ([t] {
      threadIdx = dim3 (t);
      for (;;) {
        gate->arrive_and_wait ();
        if (quit) return;
        blockIdx = cur_block;
        (*job) ();
        gate->arrive_and_wait ();
      }
    });
    pool.back ().detach ();
  }
  atexit (stop_pool);
}
void emu_run (dim3 g, unsigned n, bool threaded, std::function<void ()> f)
{
  gridDim = g; blockDim = dim3 (n);
  if (threaded && pool.empty ())
    start_pool ();
  for (unsigned z = 0; z < g.z; z++) for (unsigned y = 0; y < g.y; y++) for (unsigned x = 0; x < g.x; x++) {
    if (threaded) {
      cur_block = dim3 (x, y, z);
      job = &f;
      gate->arrive_and_wait ();
      gate->arrive_and_wait ();
    } else {
      for (unsigned t = 0; t < n; t++) {
        threadIdx = dim3 (t);
        blockIdx = dim3 (x, y, z);
        f ();
      }
    }
  }
}
