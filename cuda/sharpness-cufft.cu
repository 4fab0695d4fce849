/* cuFFT, opened at first use: see sharpness-cufft.h.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dlfcn.h>

#include <cstdio>

#include "sharpness-cufft.h"

#ifndef SHARPNESS_CUDA_LIBDIR
#error "SHARPNESS_CUDA_LIBDIR (the toolkit's lib64) must be defined"
#endif

/* The soname of the cuFFT whose headers we were compiled with. */
#define CUFFT_STRINGIFY_(x) #x
#define CUFFT_STRINGIFY(x) CUFFT_STRINGIFY_ (x)
#define CUFFT_SONAME "libcufft.so." CUFFT_STRINGIFY (CUFFT_VER_MAJOR)
#define CUFFT_PATH SHARPNESS_CUDA_LIBDIR "/" CUFFT_SONAME

namespace
{

struct Loaded
{
  SharpnessCufft api;
  bool ok;
  char why[256];
};

template <typename F>
bool
resolve (void *lib, const char *name, F * out, Loaded * l)
{
  *out = reinterpret_cast<F> (dlsym (lib, name));
  if (!*out)
    snprintf (l->why, sizeof l->why, "cuFFT lacks %s", name);
  return *out != nullptr;
}

Loaded
load (void)
{
  Loaded l = { };
  void *lib = dlopen (CUFFT_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    lib = dlopen (CUFFT_PATH, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf (l.why, sizeof l.why, "cannot open " CUFFT_SONAME " (nor "
        CUFFT_PATH ")");
    return l;
  }
  SharpnessCufft *a = &l.api;
  l.ok = resolve (lib, "cufftCreate", &a->create, &l) &&
      resolve (lib, "cufftDestroy", &a->destroy, &l) &&
      resolve (lib, "cufftSetAutoAllocation", &a->set_auto_allocation, &l) &&
      resolve (lib, "cufftMakePlanMany", &a->make_plan_many, &l) &&
      resolve (lib, "cufftSetWorkArea", &a->set_work_area, &l) &&
      resolve (lib, "cufftSetStream", &a->set_stream, &l) &&
      resolve (lib, "cufftExecD2Z", &a->exec_d2z, &l) &&
      resolve (lib, "cufftExecC2C", &a->exec_c2c, &l);
  /* Kept open for the life of the process: plans may outlive any one
   * element, and cuFFT does not support being unloaded and reloaded. */
  return l;
}

}  // namespace

const SharpnessCufft *
sharpness_cufft_get (const char **why)
{
  /* A function-local static is initialised once, thread-safely. */
  static const Loaded loaded = load ();
  if (!loaded.ok) {
    if (why)
      *why = loaded.why;
    return nullptr;
  }
  return &loaded.api;
}

const char *
sharpness_cufft_result_string (cufftResult r)
{
  switch (r) {
    case CUFFT_SUCCESS:
      return "success";
    case CUFFT_INVALID_PLAN:
      return "invalid plan";
    case CUFFT_ALLOC_FAILED:
      return "allocation failed";
    case CUFFT_INVALID_VALUE:
      return "invalid value";
    case CUFFT_INTERNAL_ERROR:
      return "internal error";
    case CUFFT_EXEC_FAILED:
      return "execution failed";
    case CUFFT_SETUP_FAILED:
      return "setup failed";
    case CUFFT_INVALID_SIZE:
      return "invalid size";
    case CUFFT_NOT_SUPPORTED:
      return "not supported";
    default:
      return "cuFFT error";
  }
}
