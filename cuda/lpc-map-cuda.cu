/* The LPC map on the GPU: see lpc-map-cuda.h.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Constants from the official lpc_si.m / Kovesi logGabor_2D as given in
 * docs/reference/metrics.md.  Precision: the image's spectrum is taken in double
 * (its DC term is ~1e8 times its high frequencies, which a float transform
 * would bury in rounding noise), the bank is evaluated in float inside the
 * product kernel (24 tables of W x H would be 200 MB at 1080p for values
 * that cost a few instructions), and the 24 inverse transforms run in
 * single precision.  Statistics and the map itself are accumulated in
 * double.  The resulting LPC-SI is within ~1e-6 of the all-double
 * reference (measured: docs/performance/notes-cuda-perceptual.md).
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>

#include <cub/block/block_reduce.cuh>

#include "device-alloc.cuh"
#include "lpc-map-cuda.h"
#include "sharpness-cufft.h"
#include "sharpness-cuda-tuning.h"

using sharpness_cuda::device_alloc;
using sharpness_cuda::device_free_all;

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

/* {energy |M1|, cos+ (arg M1 - 3 arg M2 + 2 arg M3)} of one orientation's
 * responses M1..M3 (the same operations on both paths, so that they agree
 * bit for bit given the same responses). */
__device__ __forceinline__ float2
orientation_terms (float2 m1, float2 m2, float2 m3)
{
  const float e = hypotf (m1.x, m1.y);
  /* cos (w . arg M) = Re (u1 conj (u2)^3 u3^2) for unit phasors u. */
  float2 a = phasor (m2);
  a.y = -a.y;
  const float2 b = phasor (m3);
  const float2 prod = cmul (cmul (phasor (m1), cmul (a, cmul (a, a))),
      cmul (b, b));
  return make_float2 (e, fmaxf (prod.x, 0.f));
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

/* --- every orientation of a chunk in one launch each ------------------ */

/* The log-Gabor bank, for the product kernel. */
struct BatchParams
{
  float step_x, step_y;         /* 1 / n or 1 / (n - 1) (odd n) per axis */
  float log_fo[kScales];        /* log of each scale's centre frequency */
  float radial_scale;           /* -1 / (2 ln^2 sigmaOnf) */
  float angle_scale;            /* -1 / (2 sigma_theta^2) */
  float inv_n;                  /* 1 / (W H): unnormalised inverse FFT */
  float theta[kOrientations];   /* orientation angles */
};

/* The products spectrum x F(s, o) for the orientations [@o0, @o0 + @chunk)
 * and all scales in one pass over the spectrum: batch element
 * (o - o0) 3 + s at offset ((o - o0) 3 + s) W H.  The radial parts and
 * the angle are computed once per bin for all orientations. */
__global__ void __launch_bounds__ (kThreads)
lpc_product_batch_kernel (const double2 * __restrict__ half, int width,
    int height, BatchParams p, int o0, int chunk, float2 * __restrict__ out)
{
  const int u = blockIdx.x * kThreads + threadIdx.x, v = blockIdx.y;
  if (u >= width)
    return;
  const int half_width = width / 2 + 1;
  const size_t n = (size_t) width * height, i = (size_t) v * width + u;

  if (u == 0 && v == 0) {
    /* The bank's DC is 0. */
    for (int b = 0; b < chunk * kScales; b++)
      out[b * n] = make_float2 (0.f, 0.f);
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
  const float t = r / kLowpassCutoff, t2 = t * t, t4 = t2 * t2,
      t8 = t4 * t4, t16 = t8 * t8;
  const float lowpass = 1.f / (1.f + t16 * t8 * t4 * t2);
  const float angle = atan2f (-fy, fx);

  float radial[kScales];
#pragma unroll
  for (int s = 0; s < kScales; s++) {
    const float l = log_r - p.log_fo[s];
    radial[s] = expf (l * l * p.radial_scale);
  }

  for (int c = 0; c < chunk; c++) {
    float d = angle - p.theta[o0 + c];
    if (d > (float) M_PI)
      d -= 2.f * (float) M_PI;
    else if (d <= -(float) M_PI)
      d += 2.f * (float) M_PI;
    const float angular = expf (d * d * p.angle_scale) * lowpass * p.inv_n;
    float2 *o = out + (size_t) c * kScales * n + i;
#pragma unroll
    for (int s = 0; s < kScales; s++) {
      const double w = radial[s] * angular;
      o[s * n] = make_float2 ((float) (x.x * w), (float) (x.y * w));
    }
  }
}

/* Per orientation of the chunk (blockIdx.z), block partials {sum e,
 * sum e^2} of the finest scale's energy e = |M1| over the centre crop
 * (@crop_w wide, from (@border, @border)). */
__global__ void __launch_bounds__ (kThreads)
lpc_energy_partials_kernel (const float2 * __restrict__ resp, int width,
    int height, int border, int crop_w, double2 * __restrict__ partials)
{
  using Reduce = cub::BlockReduce<double, kThreads>;
  __shared__ typename Reduce::TempStorage storage;

  const int cx = blockIdx.x * kThreads + threadIdx.x, cy = blockIdx.y;
  const size_t n = (size_t) width * height;
  double sum = 0.0, sum_sq = 0.0;

  if (cx < crop_w) {
    const float2 m1 = resp[(size_t) blockIdx.z * kScales * n +
        (size_t) (border + cy) * width + (border + cx)];
    /* As orientation_terms (): the same e the map kernel thresholds. */
    const float e = hypotf (m1.x, m1.y);
    sum = e;
    sum_sq = (double) e * e;
  }
  sum = Reduce (storage).Sum (sum);
  __syncthreads ();
  sum_sq = Reduce (storage).Sum (sum_sq);
  if (threadIdx.x == 0)
    partials[((size_t) blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x +
        blockIdx.x] = make_double2 (sum, sum_sq);
}

/* The map straight from the responses of the orientations [@o0, @o0 +
 * @chunk), once their thresholds are known: no {e, cos+} buffer.  With
 * several chunks the double sums {num, den} of each crop pixel carry over
 * in @acc (the same additions in the same order as one chunk); the last
 * chunk writes LPC = num / (den + C), as lpc_map_kernel. */
__global__ void __launch_bounds__ (kThreads)
lpc_map_batch_kernel (const float2 * __restrict__ resp,
    const double * __restrict__ thresholds, int width, int height,
    int border, int crop_w, int o0, int chunk, int first, int last,
    double2 * __restrict__ acc, float *__restrict__ out)
{
  const int cx = blockIdx.x * kThreads + threadIdx.x, cy = blockIdx.y;
  if (cx >= crop_w)
    return;
  const size_t n = (size_t) width * height;
  const size_t i = (size_t) (border + cy) * width + (border + cx);
  const size_t j = (size_t) cy * crop_w + cx;
  double num = 0.0, den = 0.0;

  if (!first) {
    const double2 a = acc[j];
    num = a.x;
    den = a.y;
  }
  for (int c = 0; c < chunk; c++) {
    const float2 *r = resp + (size_t) c * kScales * n;
    const float2 ec = orientation_terms (r[i], r[n + i], r[2 * n + i]);
    const double e = fmax (0.0, ec.x - thresholds[o0 + c]);
    num += ec.y * e;
    den += e;
  }
  if (last)
    out[j] = (float) (num / (den + kLpcC));
  else
    acc[j] = make_double2 (num, den);
}

}  // namespace

/* Responses plus the inverse plan's work area of the batched path: the
 * largest chunk of orientations per cuFFT call that fits (8 at 1080p). */
constexpr size_t kBatchBudget = (size_t) 1 << 30;

struct SharpnessLpcMap
{
  int width, height, border, crop_w, crop_h;
  int chunk;                    /* orientations per inverse cuFFT call */
  const SharpnessCufft *fft;
  cufftHandle forward, inverse;
  bool have_forward, have_inverse;
  size_t forward_work, inverse_work;
  void *fft_work;
  double2 *spectrum;            /* H x (W / 2 + 1) */
  float2 *responses;            /* 3 chunk x W x H */
  double2 *partials;            /* 8 x blocks of the partials kernel */
  int n_partials;               /* blocks per orientation */
  double *thresholds;           /* 8 */
  double2 *acc;                 /* batched, chunk < 8: {num, den} per crop
                                 * pixel */
  BatchParams batch;
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
    m->partials, m->thresholds, m->acc
  };
  device_free_all (buffers);
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
  BatchParams *b = &m->batch;
  const double ln_sigma = log (kSigmaOnf);
  const double sigma_theta = M_PI / kOrientations / kThetaOnSigma;

  /* Odd sizes: the grid is (-(n-1)/2 .. (n-1)/2) / (n - 1). */
  b->step_x = axis_step (m->width);
  b->step_y = axis_step (m->height);
  for (int s = 0; s < kScales; s++)
    b->log_fo[s] = (float) log (1.0 / (kMinWavelength * kScaleFactors[s]));
  b->radial_scale = (float) (-1.0 / (2.0 * ln_sigma * ln_sigma));
  b->angle_scale = (float) (-1.0 / (2.0 * sigma_theta * sigma_theta));
  b->inv_n = (float) (1.0 / ((double) m->width * m->height));
  for (int o = 0; o < kOrientations; o++)
    b->theta[o] = (float) (o * M_PI / kOrientations);
}

/* An integer from the environment in [@lo, @hi], else @fallback. */
static int
env_int (const char *name, int lo, int hi, int fallback)
{
  const char *v = getenv (name);
  if (!v || !*v)
    return fallback;
  char *end;
  const long x = strtol (v, &end, 10);
  return *end || x < lo || x > hi ? fallback : (int) x;
}

/* The inverse plan: batch 3 chunk, chunk the largest of 8, 4, 2, 1 whose
 * responses and work area fit kBatchBudget, or what
 * SHARPNESS_CUDA_LPC_BATCH asks for (1, 2, 4 or 8: a tuning option). */
static SharpnessStatus
inverse_plan_init (SharpnessCuda * cuda, SharpnessLpcMap * m)
{
  const SharpnessCufft *f = m->fft;
  int dims[2] = { m->height, m->width };
  const int n = m->width * m->height;
  int forced = env_int (SHARPNESS_CUDA_ENV_LPC_BATCH, 1, kOrientations, 0);
  SharpnessStatus st;

  if (forced & (forced - 1))
    forced = 0;                 /* not a power of two: ignored */
  int chunk = forced ? forced : kOrientations;
  for (;;) {
    if ((st = cufft_check (cuda, f->create (&m->inverse), "plan creation")))
      return st;
    m->have_inverse = true;
    if ((st = cufft_check (cuda, f->set_auto_allocation (m->inverse, 0),
                "plan setup")))
      return st;
    st = cufft_check (cuda, f->make_plan_many (m->inverse, 2, dims, nullptr,
            1, n, nullptr, 1, n, CUFFT_C2C, kScales * chunk,
            &m->inverse_work), "inverse plan");
    const bool last_try = chunk == 1 || forced;
    if (st != SHARPNESS_OK && last_try)
      return st;
    /* A batch cuFFT refuses (size limits) is retried smaller, as one that
     * does not fit the budget. */
    const size_t need = (size_t) kScales * chunk * n * sizeof (float2) +
        m->inverse_work;
    if (st == SHARPNESS_OK && (last_try || need <= kBatchBudget))
      break;
    m->fft->destroy (m->inverse);
    m->have_inverse = false;
    chunk /= 2;
  }
  m->chunk = chunk;
  return SHARPNESS_OK;
}

static SharpnessStatus
plans_init (SharpnessCuda * cuda, SharpnessLpcMap * m)
{
  const SharpnessCufft *f = m->fft;
  int dims[2] = { m->height, m->width };
  const int n = m->width * m->height;
  SharpnessStatus st;

  if ((st = cufft_check (cuda, f->create (&m->forward), "plan creation")))
    return st;
  m->have_forward = true;
  if ((st = cufft_check (cuda, f->set_auto_allocation (m->forward, 0),
              "plan setup")) ||
      (st = cufft_check (cuda, f->make_plan_many (m->forward, 2, dims,
                  nullptr, 1, n, nullptr, 1, n, CUFFT_D2Z, 1,
                  &m->forward_work), "forward plan")) ||
      (st = inverse_plan_init (cuda, m)))
    return st;

  /* One work area for both plans: they never run at the same time. */
  size_t work = m->forward_work > m->inverse_work ? m->forward_work :
      m->inverse_work;
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
  m->crop_w = width - 2 * m->border;
  m->crop_h = height - 2 * m->border;
  m->fft = fft;
  bank_init (m);

  const size_t n = (size_t) width * height;
  SharpnessStatus st = plans_init (cuda, m);
  if (st == SHARPNESS_OK) {
    /* Partials of every row block of the crop. */
    m->n_partials = (int) (row_blocks (m->crop_w) * m->crop_h);
    const size_t crop = (size_t) m->crop_w * m->crop_h;
    if ((st = device_alloc (cuda, (void **) &m->spectrum,
                (size_t) height * (width / 2 + 1) * sizeof (double2),
                "LPC spectrum")) ||
        (st = device_alloc (cuda, (void **) &m->responses,
                (size_t) kScales * m->chunk * n * sizeof (float2),
                "log-Gabor responses")) ||
        (m->chunk < kOrientations &&
            (st = device_alloc (cuda, (void **) &m->acc,
                    crop * sizeof (double2), "LPC map sums"))) ||
        (st = device_alloc (cuda, (void **) &m->partials,
                kOrientations * (size_t) m->n_partials * sizeof (double2),
                "LPC partials")) ||
        (st = device_alloc (cuda, (void **) &m->thresholds,
                kOrientations * sizeof (double), "LPC thresholds")))
      ;
  }
  if (st != SHARPNESS_OK) {
    sharpness_lpc_map_free (m);
    return st;
  }
  *out = m;
  return SHARPNESS_OK;
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

/* Per chunk of orientations (one chunk of all 8 unless memory is short):
 * one product kernel for all its filters, one inverse cuFFT call of batch
 * 3 chunk, the energy partials of its finest scale, its thresholds, and the
 * map's sums straight from the responses. */
static SharpnessStatus
run_batched (SharpnessCuda * cuda, SharpnessLpcMap * m, float *out)
{
  const SharpnessCufft *f = m->fft;
  const dim3 grid (row_blocks (m->width), m->height);
  const dim3 crop_grid (row_blocks (m->crop_w), m->crop_h);
  SharpnessStatus st;

  for (int o0 = 0; o0 < kOrientations; o0 += m->chunk) {
    lpc_product_batch_kernel <<<grid, kThreads, 0, cuda->stream>>>
        (m->spectrum, m->width, m->height, m->batch, o0, m->chunk,
        m->responses);
    if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
                "log-Gabor products")) ||
        (st = cufft_check (cuda, f->exec_c2c (m->inverse,
                    (cufftComplex *) m->responses,
                    (cufftComplex *) m->responses, CUFFT_INVERSE),
                "inverse FFT")))
      return st;
    lpc_energy_partials_kernel <<<dim3 (crop_grid.x, crop_grid.y, m->chunk),
        kThreads, 0, cuda->stream>>> (m->responses, m->width, m->height,
        m->border, m->crop_w, m->partials + (size_t) o0 * m->n_partials);
    if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
                "LPC energy")))
      return st;
    lpc_threshold_kernel <<<m->chunk, kThreads, 0, cuda->stream>>>
        (m->partials + (size_t) o0 * m->n_partials, m->n_partials,
        (double) m->crop_w * m->crop_h, m->thresholds + o0);
    if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
                "LPC thresholds")))
      return st;
    lpc_map_batch_kernel <<<crop_grid, kThreads, 0, cuda->stream>>>
        (m->responses, m->thresholds, m->width, m->height, m->border,
        m->crop_w, o0, m->chunk, o0 == 0, o0 + m->chunk == kOrientations,
        m->acc, out);
    if ((st = sharpness_cuda_check (cuda, cudaGetLastError (), "LPC map")))
      return st;
  }
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_lpc_map_run (SharpnessCuda * cuda, SharpnessLpcMap * m,
    const double *image, float *out)
{
  SharpnessStatus st;

  if ((st = cufft_check (cuda, m->fft->exec_d2z (m->forward, (double *) image,
                  (cufftDoubleComplex *) m->spectrum), "forward FFT")))
    return st;
  return run_batched (cuda, m, out);
}

/* --- CUDA graphs ----------------------------------------------------- */

void
sharpness_cuda_graph_init (SharpnessCudaGraph * g)
{
  g->exec = nullptr;
  /* SHARPNESS_CUDA_NO_GRAPH=1: plain launches (a tuning option). */
  g->mode = env_int (SHARPNESS_CUDA_ENV_NO_GRAPH, 0, 1, 0) == 1 ?
      SHARPNESS_CUDA_GRAPH_OFF : SHARPNESS_CUDA_GRAPH_UNTRIED;
}

void
sharpness_cuda_graph_clear (SharpnessCudaGraph * g)
{
  if (g->exec)
    (void) cudaGraphExecDestroy (g->exec);
  (void) cudaGetLastError ();
  g->exec = nullptr;
}

/* Captures @body on the backend's stream into g->exec; false (the stream
 * out of capture, no error pending) when anything refuses. */
static bool
graph_capture (SharpnessCuda * cuda, SharpnessCudaGraph * g,
    SharpnessGraphBody body, void *data)
{
  cudaGraph_t graph = nullptr;

  /* Thread-local: other threads' (other elements') allocations stay legal
   * while this one captures. */
  if (cudaStreamBeginCapture (cuda->stream,
          cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
    (void) cudaGetLastError ();
    return false;
  }
  const SharpnessStatus st = body (cuda, data);
  /* Always ended, whatever the body did, so that the stream leaves capture
   * mode; a capture the driver invalidated ends with no graph. */
  const cudaError_t end = cudaStreamEndCapture (cuda->stream, &graph);
  bool ok = st == SHARPNESS_OK && end == cudaSuccess && graph &&
      cudaGraphInstantiate (&g->exec, graph, 0) == cudaSuccess;
  if (graph)
    (void) cudaGraphDestroy (graph);
  if (!ok)
    g->exec = nullptr;
  (void) cudaGetLastError ();
  return ok;
}

SharpnessStatus
sharpness_cuda_graph_run (SharpnessCuda * cuda, SharpnessCudaGraph * g,
    SharpnessGraphBody body, void *data)
{
  if (g->mode == SHARPNESS_CUDA_GRAPH_UNTRIED)
    g->mode = graph_capture (cuda, g, body, data) ?
        SHARPNESS_CUDA_GRAPH_READY : SHARPNESS_CUDA_GRAPH_OFF;
  if (g->mode == SHARPNESS_CUDA_GRAPH_READY)
    return sharpness_cuda_check (cuda, cudaGraphLaunch (g->exec,
            cuda->stream), "CUDA graph launch");
  /* No graph (disabled, or capture refused): the same work, launched. */
  return body (cuda, data);
}
