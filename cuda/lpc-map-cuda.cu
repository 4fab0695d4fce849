/* The LPC map on the GPU: see lpc-map-cuda.h.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Constants from the official lpc_si.m / Kovesi logGabor_2D as given in
 * docs/metrics.md.  Precision: the image's spectrum is taken in double
 * (its DC term is ~1e8 times its high frequencies, which a float transform
 * would bury in rounding noise), the bank is evaluated in float inside the
 * product kernel (24 tables of W x H would be 200 MB at 1080p for values
 * that cost a few instructions), and the 24 inverse transforms run in
 * single precision.  Statistics and the map itself are accumulated in
 * double.  The resulting LPC-SI is within ~1e-6 of the all-double
 * reference (measured: docs/notes-cuda-perceptual.md).
 */
#include <cmath>
#include <cstdio>

#include <cub/block/block_reduce.cuh>

#include "device-alloc.cuh"
#include "lpc-map-cuda.h"
#include "sharpness-cufft.h"

using sharpness_cuda::device_alloc;

namespace
{

constexpr int kOrientations = 8;
constexpr int kScales = 3;
/* Wavelengths 4 s for s = 1, 1.5, 2 (minimum wavelength 4). */
constexpr double kScaleFactors[kScales] = { 1.0, 1.5, 2.0 };
constexpr double kMinWavelength = 4.0;
constexpr double kSigmaOnf = 0.75;
/* Angular sigma: the orientation spacing pi / 8 over 1.5. */
constexpr double kThetaOnSigma = 1.5;
/* Kovesi's lowpassfilter ([rows cols], 0.45, 15): 1 / (1 + (r/0.45)^30). */
constexpr float kLowpassCutoff = 0.45f;
/* lpc_si.m: C. */
constexpr double kLpcC = 2.0;

constexpr int kThreads = 256;

/* Per orientation, for the product kernel. */
struct BankParams
{
  float step_x, step_y;         /* 1 / n or 1 / (n - 1) (odd n) per axis */
  float log_fo[kScales];        /* log of each scale's centre frequency */
  float radial_scale;           /* -1 / (2 ln^2 sigmaOnf) */
  float angle_scale;            /* -1 / (2 sigma_theta^2) */
  float theta;                  /* orientation angle */
  float inv_n;                  /* 1 / (W H): unnormalised inverse FFT */
};

/* Frequency of FFT bin @i of @n along one axis, as the ifftshift-ed grid of
 * logGabor_2D: i for i < ceil (n / 2), i - n above, times @step. */
__device__ __forceinline__ float
bin_frequency (int i, int n, float step)
{
  return (float) (i < (n + 1) / 2 ? i : i - n) * step;
}

__global__ void __launch_bounds__ (kThreads)
lpc_load_plane_kernel (SharpnessPlane plane, double *image)
{
  const int x = blockIdx.x * kThreads + threadIdx.x, y = blockIdx.y;
  if (x >= plane.width)
    return;
  const uint8_t *row = plane.data + (size_t) y * plane.stride;
  image[(size_t) y * plane.width + x] = sharpness_plane_gray_at (&plane, row,
      x);
}

/* The three products spectrum x F(s, o) of one orientation, full W x H
 * spectra (batch s at s W H), read from the D2Z half spectrum through its
 * Hermitian symmetry. */
__global__ void __launch_bounds__ (kThreads)
lpc_product_kernel (const double2 * __restrict__ half, int width, int height,
    BankParams p, float2 * __restrict__ out)
{
  const int u = blockIdx.x * kThreads + threadIdx.x, v = blockIdx.y;
  if (u >= width)
    return;
  const int half_width = width / 2 + 1;
  const size_t n = (size_t) width * height, i = (size_t) v * width + u;

  if (u == 0 && v == 0) {
    /* The bank's DC is 0. */
#pragma unroll
    for (int s = 0; s < kScales; s++)
      out[s * n] = make_float2 (0.f, 0.f);
    return;
  }

  double2 x;
  if (u < half_width) {
    x = half[(size_t) v * half_width + u];
  } else {
    x = half[(size_t) (v ? height - v : 0) * half_width + (width - u)];
    x.y = -x.y;
  }

  const float fx = bin_frequency (u, width, p.step_x);
  const float fy = bin_frequency (v, height, p.step_y);
  const float r = sqrtf (fx * fx + fy * fy);
  const float log_r = logf (r);

  /* Low-pass (r / 0.45)^30 by squaring: 1.57^30 at most, no overflow. */
  const float t = r / kLowpassCutoff, t2 = t * t, t4 = t2 * t2,
      t8 = t4 * t4, t16 = t8 * t8;
  const float lowpass = 1.f / (1.f + t16 * t8 * t4 * t2);

  /* Angular distance to the orientation, wrapped to (-pi, pi]: the
   * reference's |atan2 (sin, cos of the difference)|. */
  float d = atan2f (-fy, fx) - p.theta;
  if (d > (float) M_PI)
    d -= 2.f * (float) M_PI;
  else if (d <= -(float) M_PI)
    d += 2.f * (float) M_PI;
  const float angular = expf (d * d * p.angle_scale) * lowpass * p.inv_n;

#pragma unroll
  for (int s = 0; s < kScales; s++) {
    const float l = log_r - p.log_fo[s];
    const double w = expf (l * l * p.radial_scale) * angular;
    out[s * n + i] = make_float2 ((float) (x.x * w), (float) (x.y * w));
  }
}

/* Unit phasor of @m; angle (0) = 0 as in MATLAB. */
__device__ __forceinline__ float2
phasor (float2 m)
{
  const float a = hypotf (m.x, m.y);
  return a > 0.f ? make_float2 (m.x / a, m.y / a) : make_float2 (1.f, 0.f);
}

__device__ __forceinline__ float2
cmul (float2 a, float2 b)
{
  return make_float2 (a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

/* One orientation's responses M1..M3 to {energy |M1|, cos+ of the phase
 * arg M1 - 3 arg M2 + 2 arg M3}, plus the energy's sum and sum of squares
 * over the centre crop, one partial per block. */
__global__ void __launch_bounds__ (kThreads)
lpc_orientation_kernel (const float2 * __restrict__ resp, int width,
    int height, int border, float2 * __restrict__ out,
    double2 * __restrict__ partials)
{
  using Reduce = cub::BlockReduce<double, kThreads>;
  __shared__ typename Reduce::TempStorage storage;

  const int u = blockIdx.x * kThreads + threadIdx.x, v = blockIdx.y;
  const size_t n = (size_t) width * height, i = (size_t) v * width + u;
  double sum = 0.0, sum_sq = 0.0;

  if (u < width) {
    const float2 m1 = resp[i], m2 = resp[n + i], m3 = resp[2 * n + i];
    const float e = hypotf (m1.x, m1.y);
    /* cos (w . arg M) = Re (u1 conj (u2)^3 u3^2) for unit phasors u. */
    float2 a = phasor (m2);
    a.y = -a.y;
    const float2 b = phasor (m3);
    const float2 prod = cmul (cmul (phasor (m1), cmul (a, cmul (a, a))),
        cmul (b, b));
    out[i] = make_float2 (e, fmaxf (prod.x, 0.f));
    if (u >= border && u < width - border && v >= border &&
        v < height - border) {
      sum = e;
      sum_sq = (double) e * e;
    }
  }
  sum = Reduce (storage).Sum (sum);
  __syncthreads ();
  sum_sq = Reduce (storage).Sum (sum_sq);
  if (threadIdx.x == 0)
    partials[blockIdx.y * gridDim.x + blockIdx.x] = make_double2 (sum, sum_sq);
}

/* One block per orientation: T = mean + 2 std (N - 1) of the crop energy,
 * partials summed in a fixed order. */
__global__ void __launch_bounds__ (kThreads)
lpc_threshold_kernel (const double2 * __restrict__ partials, int n_partials,
    double count, double *thresholds)
{
  using Reduce = cub::BlockReduce<double, kThreads>;
  __shared__ typename Reduce::TempStorage storage;
  const double2 *p = partials + (size_t) blockIdx.x * n_partials;
  double sum = 0.0, sum_sq = 0.0;

  for (int i = threadIdx.x; i < n_partials; i += kThreads) {
    sum += p[i].x;
    sum_sq += p[i].y;
  }
  sum = Reduce (storage).Sum (sum);
  __syncthreads ();
  sum_sq = Reduce (storage).Sum (sum_sq);
  if (threadIdx.x == 0) {
    const double mean = sum / count;
    /* One sample: no spread (as the CPU backend). */
    const double var = count < 2.0 ? 0.0 :
        fmax (0.0, (sum_sq - sum * mean) / (count - 1.0));
    thresholds[blockIdx.x] = mean + 2.0 * sqrt (var);
  }
}

/* LPC = sum_o c_o max (0, e_o - T_o) / (sum_o max (0, e_o - T_o) + C) on
 * the centre crop, @w wide, starting at (@border, @border). */
__global__ void __launch_bounds__ (kThreads)
lpc_map_kernel (const float2 * __restrict__ orient,
    const double * __restrict__ thresholds, int width, int height,
    int border, int w, float *__restrict__ out)
{
  const int x = blockIdx.x * kThreads + threadIdx.x, y = blockIdx.y;
  if (x >= w)
    return;
  const size_t n = (size_t) width * height;
  const size_t i = (size_t) (border + y) * width + (border + x);
  double num = 0.0, den = 0.0;

#pragma unroll
  for (int o = 0; o < kOrientations; o++) {
    const float2 ec = orient[o * n + i];
    const double e = fmax (0.0, ec.x - thresholds[o]);
    num += ec.y * e;
    den += e;
  }
  out[(size_t) y * w + x] = (float) (num / (den + kLpcC));
}

}  // namespace

struct SharpnessLpcMap
{
  int width, height, border;
  const SharpnessCufft *fft;
  cufftHandle forward, inverse;
  bool have_forward, have_inverse;
  void *fft_work;
  double2 *spectrum;            /* H x (W / 2 + 1) */
  float2 *responses;            /* 3 x W x H */
  float2 *orient;               /* 8 x W x H: {e, cos+} */
  double2 *partials;            /* 8 x blocks of lpc_orientation_kernel */
  double *thresholds;           /* 8 */
  BankParams bank[kOrientations];
};

static SharpnessStatus
cufft_check (SharpnessCuda * cuda, cufftResult r, const char *what)
{
  if (r == CUFFT_SUCCESS)
    return SHARPNESS_OK;
  snprintf (cuda->error, sizeof cuda->error, "%s: cuFFT %s (%d)", what,
      sharpness_cufft_result_string (r), (int) r);
  return r == CUFFT_ALLOC_FAILED ? SHARPNESS_ERROR_NO_MEMORY :
      SHARPNESS_ERROR_DEVICE;
}

void
sharpness_lpc_map_free (SharpnessLpcMap * m)
{
  if (!m)
    return;
  if (m->have_forward)
    m->fft->destroy (m->forward);
  if (m->have_inverse)
    m->fft->destroy (m->inverse);
  void *buffers[] = { m->fft_work, m->spectrum, m->responses,
    m->orient, m->partials, m->thresholds
  };
  for (void *b : buffers)
    if (b)
      (void) cudaFree (b);
  (void) cudaGetLastError ();
  delete m;
}

/* Kovesi's grid spacing: 1 / n, 1 / (n - 1) for odd n, and all 0 for
 * n = 1 (where his formula is 0 / 0), as cpu/log-gabor.c. */
static float
axis_step (int n)
{
  return n == 1 ? 0.f : (float) (1.0 / (n % 2 ? n - 1 : n));
}

static void
bank_init (SharpnessLpcMap * m)
{
  for (int o = 0; o < kOrientations; o++) {
    BankParams *p = &m->bank[o];
    const double ln_sigma = log (kSigmaOnf);
    const double sigma_theta = M_PI / kOrientations / kThetaOnSigma;
    /* Odd sizes: the grid is (-(n-1)/2 .. (n-1)/2) / (n - 1). */
    p->step_x = axis_step (m->width);
    p->step_y = axis_step (m->height);
    for (int s = 0; s < kScales; s++)
      p->log_fo[s] = (float) log (1.0 / (kMinWavelength * kScaleFactors[s]));
    p->radial_scale = (float) (-1.0 / (2.0 * ln_sigma * ln_sigma));
    p->angle_scale = (float) (-1.0 / (2.0 * sigma_theta * sigma_theta));
    p->theta = (float) (o * M_PI / kOrientations);
    p->inv_n = (float) (1.0 / ((double) m->width * m->height));
  }
}

static SharpnessStatus
plans_init (SharpnessCuda * cuda, SharpnessLpcMap * m)
{
  const SharpnessCufft *f = m->fft;
  int dims[2] = { m->height, m->width };
  const int n = m->width * m->height;
  size_t forward_work = 0, inverse_work = 0;
  SharpnessStatus st;

  if ((st = cufft_check (cuda, f->create (&m->forward), "plan creation")))
    return st;
  m->have_forward = true;
  if ((st = cufft_check (cuda, f->create (&m->inverse), "plan creation")))
    return st;
  m->have_inverse = true;

  /* One work area for both plans: they never run at the same time. */
  if ((st = cufft_check (cuda, f->set_auto_allocation (m->forward, 0),
              "plan setup")) ||
      (st = cufft_check (cuda, f->set_auto_allocation (m->inverse, 0),
              "plan setup")) ||
      (st = cufft_check (cuda, f->make_plan_many (m->forward, 2, dims,
                  nullptr, 1, n, nullptr, 1, n, CUFFT_D2Z, 1,
                  &forward_work), "forward plan")) ||
      (st = cufft_check (cuda, f->make_plan_many (m->inverse, 2, dims,
                  nullptr, 1, n, nullptr, 1, n, CUFFT_C2C, kScales,
                  &inverse_work), "inverse plan")))
    return st;

  size_t work = forward_work > inverse_work ? forward_work : inverse_work;
  if (work && (st = device_alloc (cuda, &m->fft_work, work,
              "cuFFT work area")))
    return st;
  if ((st = cufft_check (cuda, f->set_work_area (m->forward, m->fft_work),
              "plan setup")) ||
      (st = cufft_check (cuda, f->set_work_area (m->inverse, m->fft_work),
              "plan setup")) ||
      (st = cufft_check (cuda, f->set_stream (m->forward, cuda->stream),
              "plan setup")) ||
      (st = cufft_check (cuda, f->set_stream (m->inverse, cuda->stream),
              "plan setup")))
    return st;
  return SHARPNESS_OK;
}

static unsigned
row_blocks (int width)
{
  return (unsigned) (width + kThreads - 1) / kThreads;
}

SharpnessStatus
sharpness_lpc_map_new (SharpnessCuda * cuda, int width, int height,
    SharpnessLpcMap ** out)
{
  const char *why = nullptr;
  const SharpnessCufft *fft = sharpness_cufft_get (&why);
  *out = nullptr;
  if (!fft) {
    snprintf (cuda->error, sizeof cuda->error, "%s", why);
    return SHARPNESS_ERROR_UNSUPPORTED;
  }

  SharpnessLpcMap *m = new (std::nothrow) SharpnessLpcMap ();
  if (!m)
    return SHARPNESS_ERROR_NO_MEMORY;
  m->width = width;
  m->height = height;
  /* MATLAB round (min (W, H) / 16), as cpu/lpc-map.c. */
  m->border = ((width < height ? width : height) + 8) / 16;
  m->fft = fft;
  bank_init (m);

  const size_t n = (size_t) width * height;
  const size_t blocks = (size_t) row_blocks (width) * height;
  SharpnessStatus st;
  if ((st = device_alloc (cuda, (void **) &m->spectrum,
              (size_t) height * (width / 2 + 1) * sizeof (double2),
              "LPC spectrum")) ||
      (st = device_alloc (cuda, (void **) &m->responses,
              kScales * n * sizeof (float2), "log-Gabor responses")) ||
      (st = device_alloc (cuda, (void **) &m->orient,
              kOrientations * n * sizeof (float2), "LPC orientations")) ||
      (st = device_alloc (cuda, (void **) &m->partials,
              kOrientations * blocks * sizeof (double2), "LPC partials")) ||
      (st = device_alloc (cuda, (void **) &m->thresholds,
              kOrientations * sizeof (double), "LPC thresholds")) ||
      (st = plans_init (cuda, m))) {
    sharpness_lpc_map_free (m);
    return st;
  }
  *out = m;
  return SHARPNESS_OK;
}

int
sharpness_lpc_map_width (const SharpnessLpcMap * m)
{
  return m->width;
}

int
sharpness_lpc_map_height (const SharpnessLpcMap * m)
{
  return m->height;
}

int
sharpness_lpc_map_border (const SharpnessLpcMap * m)
{
  return m->border;
}

SharpnessStatus
sharpness_lpc_map_load_plane (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double *image)
{
  dim3 grid (row_blocks (plane->width), plane->height);
  lpc_load_plane_kernel <<<grid, kThreads, 0, cuda->stream>>> (*plane,
      image);
  return sharpness_cuda_check (cuda, cudaGetLastError (), "LPC gray load");
}

SharpnessStatus
sharpness_lpc_map_run (SharpnessCuda * cuda, SharpnessLpcMap * m,
    const double *image, float *out)
{
  const SharpnessCufft *f = m->fft;
  const size_t n = (size_t) m->width * m->height;
  const dim3 grid (row_blocks (m->width), m->height);
  const int n_partials = (int) (grid.x * grid.y);
  const int crop_w = m->width - 2 * m->border;
  const int crop_h = m->height - 2 * m->border;
  SharpnessStatus st;

  if ((st = cufft_check (cuda, f->exec_d2z (m->forward, (double *) image,
                  (cufftDoubleComplex *) m->spectrum), "forward FFT")))
    return st;

  for (int o = 0; o < kOrientations; o++) {
    lpc_product_kernel <<<grid, kThreads, 0, cuda->stream>>> (m->spectrum,
        m->width, m->height, m->bank[o], m->responses);
    if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
                "log-Gabor product")) ||
        (st = cufft_check (cuda, f->exec_c2c (m->inverse,
                    (cufftComplex *) m->responses,
                    (cufftComplex *) m->responses, CUFFT_INVERSE),
                "inverse FFT")))
      return st;
    lpc_orientation_kernel <<<grid, kThreads, 0, cuda->stream>>>
        (m->responses, m->width, m->height, m->border, m->orient + o * n,
        m->partials + (size_t) o * n_partials);
    if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
                "LPC orientation")))
      return st;
  }

  lpc_threshold_kernel <<<kOrientations, kThreads, 0, cuda->stream>>>
      (m->partials, n_partials, (double) crop_w * crop_h, m->thresholds);
  if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
              "LPC thresholds")))
    return st;

  lpc_map_kernel <<<dim3 (row_blocks (crop_w), crop_h), kThreads, 0,
      cuda->stream>>> (m->orient, m->thresholds, m->width, m->height,
      m->border, crop_w, out);
  return sharpness_cuda_check (cuda, cudaGetLastError (), "LPC map");
}
