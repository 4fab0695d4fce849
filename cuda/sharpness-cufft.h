/* cuFFT, opened at first use.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The CUDA 13 toolkit ships cuFFT as a shared library only.  Linking it
 * would make the whole plugin (CPU fallback included) fail to load where it
 * is missing, so the LPC metrics dlopen it the first time they run: first
 * by soname (LD_LIBRARY_PATH, ld.so.conf), then from the toolkit the plugin
 * was built against.  Without it these two metrics report
 * SHARPNESS_ERROR_UNSUPPORTED and every other metric still runs on the GPU.
 */
#ifndef SHARPNESS_CUFFT_H
#define SHARPNESS_CUFFT_H

#include <cufft.h>

/* The entry points the project uses, with cuFFT's own signatures. */
typedef struct
{
  decltype (&cufftCreate) create;
  decltype (&cufftDestroy) destroy;
  decltype (&cufftSetAutoAllocation) set_auto_allocation;
  decltype (&cufftMakePlanMany) make_plan_many;
  decltype (&cufftSetWorkArea) set_work_area;
  decltype (&cufftSetStream) set_stream;
  decltype (&cufftExecD2Z) exec_d2z;
  decltype (&cufftExecC2C) exec_c2c;
} SharpnessCufft;

/* The loaded library (thread-safe, loaded once per process and never
 * unloaded), or NULL with @why set to a static explanation. */
const SharpnessCufft *sharpness_cufft_get (const char **why);

/* Short name of a cufftResult, for error messages. */
const char *sharpness_cufft_result_string (cufftResult r);

#endif /* SHARPNESS_CUFFT_H */
