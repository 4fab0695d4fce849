/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-freeze.h"
#include "sharpness-freeze-v210.h"

#include <stdlib.h>

#include "sharpness-simd.h"

#include <math.h>
#include <string.h>

/* FFmpeg's M_LOG2_10 (libavutil/mathematics.h), the same literal. */
#define SHARPNESS_FFMPEG_LOG2_10 3.32192809488736234787

/* ---- Pixel format geometry ------------------------------------------- */

typedef enum
{
  KIND_GRAY,                    /* one plane of w samples */
  KIND_PLANAR,                  /* Y (or G), two chroma planes */
  KIND_PLANAR_ALPHA,            /* ... and an alpha plane of w x h */
  KIND_SEMI,                    /* Y, interleaved chroma */
  KIND_PACKED_422,              /* one plane of 4 samples per 2 pixels */
  KIND_PACKED,                  /* one plane of `components` per pixel */
  KIND_V210                     /* 32-bit words of three 10-bit samples */
} Kind;

typedef struct
{
  const gchar *name;            /* FFmpeg's name */
  Kind kind;
  guint8 log2_cw, log2_ch;      /* chroma subsampling (planar, semi) */
  guint8 bytes, depth;
  guint8 components;            /* KIND_PACKED */
} FormatInfo;

#define GRAY(n, b, d) { n, KIND_GRAY, 0, 0, b, d, 0 }
#define PLANAR(n, cw, ch, b, d) { n, KIND_PLANAR, cw, ch, b, d, 0 }
#define PLANAR_A(n, cw, ch, b, d) { n, KIND_PLANAR_ALPHA, cw, ch, b, d, 0 }
#define SEMI(n, cw, ch) { n, KIND_SEMI, cw, ch, 1, 8, 0 }
#define P422(n) { n, KIND_PACKED_422, 1, 0, 1, 8, 0 }
#define PACKED(n, c) { n, KIND_PACKED, 0, 0, 1, 8, c }

/* Indexed by SharpnessFreezeFormat. */
static const FormatInfo formats[SHARPNESS_FREEZE_N_FORMATS] = {
  [SHARPNESS_FREEZE_FORMAT_INVALID] = {NULL, KIND_GRAY, 0, 0, 0, 0, 0},
  [SHARPNESS_FREEZE_FORMAT_GRAY8] = GRAY ("gray", 1, 8),
  [SHARPNESS_FREEZE_FORMAT_GRAY9] = GRAY ("gray9le", 2, 9),
  [SHARPNESS_FREEZE_FORMAT_GRAY10] = GRAY ("gray10le", 2, 10),
  [SHARPNESS_FREEZE_FORMAT_GRAY12] = GRAY ("gray12le", 2, 12),
  [SHARPNESS_FREEZE_FORMAT_GRAY14] = GRAY ("gray14le", 2, 14),
  [SHARPNESS_FREEZE_FORMAT_GRAY16] = GRAY ("gray16le", 2, 16),
  [SHARPNESS_FREEZE_FORMAT_YUV410P] = PLANAR ("yuv410p", 2, 2, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUV411P] = PLANAR ("yuv411p", 2, 0, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUV420P] = PLANAR ("yuv420p", 1, 1, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUV422P] = PLANAR ("yuv422p", 1, 0, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUV440P] = PLANAR ("yuv440p", 0, 1, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUV444P] = PLANAR ("yuv444p", 0, 0, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUVJ411P] = PLANAR ("yuvj411p", 2, 0, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUVJ420P] = PLANAR ("yuvj420p", 1, 1, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUVJ422P] = PLANAR ("yuvj422p", 1, 0, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUVJ440P] = PLANAR ("yuvj440p", 0, 1, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUVJ444P] = PLANAR ("yuvj444p", 0, 0, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUV420P9] = PLANAR ("yuv420p9le", 1, 1, 2, 9),
  [SHARPNESS_FREEZE_FORMAT_YUV422P9] = PLANAR ("yuv422p9le", 1, 0, 2, 9),
  [SHARPNESS_FREEZE_FORMAT_YUV444P9] = PLANAR ("yuv444p9le", 0, 0, 2, 9),
  [SHARPNESS_FREEZE_FORMAT_YUV420P10] = PLANAR ("yuv420p10le", 1, 1, 2, 10),
  [SHARPNESS_FREEZE_FORMAT_YUV422P10] = PLANAR ("yuv422p10le", 1, 0, 2, 10),
  [SHARPNESS_FREEZE_FORMAT_YUV440P10] = PLANAR ("yuv440p10le", 0, 1, 2, 10),
  [SHARPNESS_FREEZE_FORMAT_YUV444P10] = PLANAR ("yuv444p10le", 0, 0, 2, 10),
  [SHARPNESS_FREEZE_FORMAT_YUV420P12] = PLANAR ("yuv420p12le", 1, 1, 2, 12),
  [SHARPNESS_FREEZE_FORMAT_YUV422P12] = PLANAR ("yuv422p12le", 1, 0, 2, 12),
  [SHARPNESS_FREEZE_FORMAT_YUV440P12] = PLANAR ("yuv440p12le", 0, 1, 2, 12),
  [SHARPNESS_FREEZE_FORMAT_YUV444P12] = PLANAR ("yuv444p12le", 0, 0, 2, 12),
  [SHARPNESS_FREEZE_FORMAT_YUV420P14] = PLANAR ("yuv420p14le", 1, 1, 2, 14),
  [SHARPNESS_FREEZE_FORMAT_YUV422P14] = PLANAR ("yuv422p14le", 1, 0, 2, 14),
  [SHARPNESS_FREEZE_FORMAT_YUV444P14] = PLANAR ("yuv444p14le", 0, 0, 2, 14),
  [SHARPNESS_FREEZE_FORMAT_YUV420P16] = PLANAR ("yuv420p16le", 1, 1, 2, 16),
  [SHARPNESS_FREEZE_FORMAT_YUV422P16] = PLANAR ("yuv422p16le", 1, 0, 2, 16),
  [SHARPNESS_FREEZE_FORMAT_YUV444P16] = PLANAR ("yuv444p16le", 0, 0, 2, 16),
  [SHARPNESS_FREEZE_FORMAT_YUVA420P] = PLANAR_A ("yuva420p", 1, 1, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUVA422P] = PLANAR_A ("yuva422p", 1, 0, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUVA444P] = PLANAR_A ("yuva444p", 0, 0, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_YUVA420P9] = PLANAR_A ("yuva420p9le", 1, 1, 2, 9),
  [SHARPNESS_FREEZE_FORMAT_YUVA422P9] = PLANAR_A ("yuva422p9le", 1, 0, 2, 9),
  [SHARPNESS_FREEZE_FORMAT_YUVA444P9] = PLANAR_A ("yuva444p9le", 0, 0, 2, 9),
  [SHARPNESS_FREEZE_FORMAT_YUVA420P10] =
      PLANAR_A ("yuva420p10le", 1, 1, 2, 10),
  [SHARPNESS_FREEZE_FORMAT_YUVA422P10] =
      PLANAR_A ("yuva422p10le", 1, 0, 2, 10),
  [SHARPNESS_FREEZE_FORMAT_YUVA444P10] =
      PLANAR_A ("yuva444p10le", 0, 0, 2, 10),
  [SHARPNESS_FREEZE_FORMAT_YUVA420P16] =
      PLANAR_A ("yuva420p16le", 1, 1, 2, 16),
  [SHARPNESS_FREEZE_FORMAT_YUVA422P16] =
      PLANAR_A ("yuva422p16le", 1, 0, 2, 16),
  [SHARPNESS_FREEZE_FORMAT_YUVA444P16] =
      PLANAR_A ("yuva444p16le", 0, 0, 2, 16),
  [SHARPNESS_FREEZE_FORMAT_NV12] = SEMI ("nv12", 1, 1),
  [SHARPNESS_FREEZE_FORMAT_NV21] = SEMI ("nv21", 1, 1),
  [SHARPNESS_FREEZE_FORMAT_NV16] = SEMI ("nv16", 1, 0),
  [SHARPNESS_FREEZE_FORMAT_YUYV422] = P422 ("yuyv422"),
  [SHARPNESS_FREEZE_FORMAT_UYVY422] = P422 ("uyvy422"),
  [SHARPNESS_FREEZE_FORMAT_YVYU422] = P422 ("yvyu422"),
  [SHARPNESS_FREEZE_FORMAT_YA8] = PACKED ("ya8", 2),
  [SHARPNESS_FREEZE_FORMAT_RGB24] = PACKED ("rgb24", 3),
  [SHARPNESS_FREEZE_FORMAT_BGR24] = PACKED ("bgr24", 3),
  [SHARPNESS_FREEZE_FORMAT_ARGB] = PACKED ("argb", 4),
  [SHARPNESS_FREEZE_FORMAT_RGBA] = PACKED ("rgba", 4),
  [SHARPNESS_FREEZE_FORMAT_ABGR] = PACKED ("abgr", 4),
  [SHARPNESS_FREEZE_FORMAT_BGRA] = PACKED ("bgra", 4),
  /* GBR planes: no subsampling, so planes 1 and 2 are w x h. */
  [SHARPNESS_FREEZE_FORMAT_GBRP] = PLANAR ("gbrp", 0, 0, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_GBRP9] = PLANAR ("gbrp9le", 0, 0, 2, 9),
  [SHARPNESS_FREEZE_FORMAT_GBRP10] = PLANAR ("gbrp10le", 0, 0, 2, 10),
  [SHARPNESS_FREEZE_FORMAT_GBRP12] = PLANAR ("gbrp12le", 0, 0, 2, 12),
  [SHARPNESS_FREEZE_FORMAT_GBRP14] = PLANAR ("gbrp14le", 0, 0, 2, 14),
  [SHARPNESS_FREEZE_FORMAT_GBRP16] = PLANAR ("gbrp16le", 0, 0, 2, 16),
  [SHARPNESS_FREEZE_FORMAT_GBRAP] = PLANAR_A ("gbrap", 0, 0, 1, 8),
  [SHARPNESS_FREEZE_FORMAT_GBRAP10] = PLANAR_A ("gbrap10le", 0, 0, 2, 10),
  [SHARPNESS_FREEZE_FORMAT_GBRAP12] = PLANAR_A ("gbrap12le", 0, 0, 2, 12),
  [SHARPNESS_FREEZE_FORMAT_GBRAP16] = PLANAR_A ("gbrap16le", 0, 0, 2, 16),
  /* Compared as yuv422p10le (4:2:2, 10 bits), read as packed words. */
  [SHARPNESS_FREEZE_FORMAT_V210] = {"v210", KIND_V210, 1, 0, 4, 10, 0},
};

SharpnessFreezeFormat
sharpness_freeze_format_from_name (const gchar * name)
{
  gsize len;

  if (!name)
    return SHARPNESS_FREEZE_FORMAT_INVALID;
  len = strlen (name);
  for (int f = 1; f < SHARPNESS_FREEZE_N_FORMATS; f++) {
    const gchar *n = formats[f].name;
    gsize nlen = strlen (n);
    if (strcmp (n, name) == 0)
      return (SharpnessFreezeFormat) f;
    /* "yuv420p10" for "yuv420p10le": FFmpeg's native-endian alias. */
    if (nlen == len + 2 && g_str_has_suffix (n, "le") &&
        strncmp (n, name, len) == 0)
      return (SharpnessFreezeFormat) f;
  }
  return SHARPNESS_FREEZE_FORMAT_INVALID;
}

const gchar *
sharpness_freeze_format_name (SharpnessFreezeFormat format)
{
  if (format <= SHARPNESS_FREEZE_FORMAT_INVALID ||
      format >= SHARPNESS_FREEZE_N_FORMATS)
    return NULL;
  return formats[format].name;
}

/* av_image_get_linesize's width of a subsampled plane: ceil (w / 2^s). */
static gint
ceil_shift (gint w, guint s)
{
  return (w + (1 << s) - 1) >> s;
}

gboolean
sharpness_freeze_layout_init (SharpnessFreezeLayout * l,
    SharpnessFreezeFormat format, gint w, gint h)
{
  const FormatInfo *fi;
  gint cw, ch;

  memset (l, 0, sizeof (*l));
  if (format <= SHARPNESS_FREEZE_FORMAT_INVALID ||
      format >= SHARPNESS_FREEZE_N_FORMATS || w <= 0 || h <= 0)
    return FALSE;
  fi = &formats[format];
  l->format = format;
  l->bytes_per_sample = fi->bytes;
  l->depth = fi->depth;
  l->log2_chroma_w = fi->log2_cw;
  l->log2_chroma_h = fi->log2_ch;

  /* config_input: width[p] = av_image_get_linesize (fmt, w, p) >> (depth
   * > 8), i.e. samples per row, chroma widths rounded up; height[p] = h >>
   * log2_chroma_h for planes 1 and 2 (rounded DOWN: the last chroma row of
   * an odd-height 4:2:0 frame is never compared), h for planes 0 and 3. */
  cw = ceil_shift (w, fi->log2_cw);
  ch = h >> fi->log2_ch;
  switch (fi->kind) {
    case KIND_GRAY:
      l->n_planes = 1;
      l->width[0] = w;
      l->height[0] = h;
      break;
    case KIND_PLANAR:
    case KIND_PLANAR_ALPHA:
      l->n_planes = fi->kind == KIND_PLANAR_ALPHA ? 4 : 3;
      l->width[0] = w;
      l->height[0] = h;
      l->width[1] = l->width[2] = cw;
      l->height[1] = l->height[2] = ch;
      if (l->n_planes == 4) {
        l->width[3] = w;
        l->height[3] = h;
      }
      break;
    case KIND_SEMI:
      l->n_planes = 2;
      l->width[0] = w;
      l->height[0] = h;
      l->width[1] = 2 * cw;
      l->height[1] = ch;
      break;
    case KIND_PACKED_422:
      /* The macropixel (Y0 U Y1 V) is the unit: 4 bytes per 2 pixels,
       * an odd width rounded up to whole macropixels. */
      l->n_planes = 1;
      l->width[0] = 4 * ceil_shift (w, 1);
      l->height[0] = h;
      break;
    case KIND_PACKED:
      l->n_planes = 1;
      l->width[0] = fi->components * w;
      l->height[0] = h;
      break;
    case KIND_V210:
      /* The words of every group holding a pixel (GStreamer's and
       * FFmpeg's row padding after them is not read), and FFmpeg's count
       * of the decoded yuv422p10le frame: w + 2 ceil (w / 2) a row. */
      l->n_planes = 1;
      l->width[0] = (w + 5) / 6 * 4;
      l->height[0] = h;
      l->v210_samples = sharpness_freeze_v210_samples (w);
      l->count = (guint64) l->v210_samples * (guint64) h;
      return TRUE;
  }
  for (int p = 0; p < l->n_planes; p++)
    l->count += (guint64) l->width[p] * (guint64) l->height[p];
  return TRUE;
}

/* One row's SAD, in loops the compiler vectorises (an 8-bit row of fewer
 * than 2^24 samples sums to less than 2^32). */
static SHARPNESS_SIMD_CLONES guint32
row_sad8 (const guint8 * a, const guint8 * b, gint w)
{
  guint32 sad = 0;

  for (gint x = 0; x < w; x++)
    sad += (guint32) abs ((gint) a[x] - (gint) b[x]);
  return sad;
}

static SHARPNESS_SIMD_CLONES guint64
row_sad16 (const guint8 * a, const guint8 * b, gint w)
{
  guint64 sad = 0;

  for (gint x = 0; x < w; x++) {
    gint va = a[2 * x] | (a[2 * x + 1] << 8);
    gint vb = b[2 * x] | (b[2 * x + 1] << 8);
    sad += (guint32) abs (va - vb);
  }
  return sad;
}

static inline guint32
load_le32 (const guint8 * p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return GUINT32_FROM_LE (v);
}

/* One v210 row's SAD over its first @n samples: whole words in a loop the
 * compiler vectorises, then the word the last sample is in. */
static SHARPNESS_SIMD_CLONES guint64
row_sad_v210 (const guint8 * a, const guint8 * b, gint n)
{
  const gint whole = n / SHARPNESS_FREEZE_V210_WORD_SAMPLES;
  const gint rest = n % SHARPNESS_FREEZE_V210_WORD_SAMPLES;
  guint64 sad = 0;

  for (gint i = 0; i < whole; i++)
    sad += sharpness_freeze_v210_word_sad (load_le32 (a + 4 * i),
        load_le32 (b + 4 * i), SHARPNESS_FREEZE_V210_WORD_SAMPLES);
  if (rest)
    sad += sharpness_freeze_v210_word_sad (load_le32 (a + 4 * whole),
        load_le32 (b + 4 * whole), rest);
  return sad;
}

guint64
sharpness_freeze_sad (const SharpnessFreezeLayout * l,
    const guint8 * const frame[4], const gsize frame_stride[4],
    const guint8 * const ref[4], const gsize ref_stride[4])
{
  guint64 sad = 0;

  if (l->v210_samples > 0) {
    for (gint y = 0; y < l->height[0]; y++)
      sad += row_sad_v210 (frame[0] + (gsize) y * frame_stride[0],
          ref[0] + (gsize) y * ref_stride[0], l->v210_samples);
    return sad;
  }

  for (int p = 0; p < l->n_planes; p++) {
    const gint w = l->width[p], h = l->height[p];

    for (gint y = 0; y < h; y++) {
      const guint8 *a = frame[p] + (gsize) y * frame_stride[p];
      const guint8 *b = ref[p] + (gsize) y * ref_stride[p];

      sad += l->bytes_per_sample == 1 ? row_sad8 (a, b, w) :
          row_sad16 (a, b, w);
    }
  }
  return sad;
}

gdouble
sharpness_freeze_mafd (guint64 sad, guint64 count, guint depth)
{
  /* is_frozen: mafd = (double) sad / count / (1ULL << bitdepth): the
   * uint64 count and the shift converted to double, left to right. */
  if (count == 0)
    return 0.0;
  return (gdouble) sad / (gdouble) count /
      (gdouble) (G_GUINT64_CONSTANT (1) << depth);
}

/* ---- Noise ------------------------------------------------------------ */

gdouble
sharpness_freeze_noise_from_db (gdouble db)
{
  /* av_strtod: d = ff_exp10 (d / 20), ff_exp10 (x) = exp2 (M_LOG2_10 * x). */
  return exp2 (SHARPNESS_FFMPEG_LOG2_10 * (db / 20));
}

gboolean
sharpness_freeze_parse_noise (const gchar * text, gdouble * noise)
{
  gchar *end = NULL;
  gdouble v;

  if (!text || !*text)
    return FALSE;
  v = g_ascii_strtod (text, &end);
  if (end == text)
    return FALSE;
  if (end[0] == 'd' && end[1] == 'B') {
    v = sharpness_freeze_noise_from_db (v);
    end += 2;
  }
  if (*end != '\0' || !(v >= 0.0 && v <= 1.0))
    return FALSE;
  *noise = v;
  return TRUE;
}

/* ---- The state machine ----------------------------------------------- */

void
sharpness_freeze_settings_init (SharpnessFreezeSettings * s)
{
  *s = (SharpnessFreezeSettings) {
    .noise = SHARPNESS_FREEZE_DEFAULT_NOISE,
    .min_duration = SHARPNESS_FREEZE_DEFAULT_MIN_DURATION,
    .depth = 8,
  };
}

void
sharpness_freeze_detector_init (SharpnessFreezeDetector * det,
    const SharpnessFreezeSettings * settings)
{
  SharpnessFreezeSettings s;

  if (settings)
    s = *settings;
  else
    sharpness_freeze_settings_init (&s);
  *det = (SharpnessFreezeDetector) {
    .settings = s,
    .min_duration_us = (gint64) (s.min_duration / 1000),
  };
  sharpness_freeze_detector_reset (det);
}

void
sharpness_freeze_detector_reset (SharpnessFreezeDetector * det)
{
  det->n = 0;
  det->have_reference = FALSE;
  det->ref_pts = SHARPNESS_TIME_NONE;
  det->ref_n = 0;
  det->frozen = FALSE;
  det->last_pts = SHARPNESS_TIME_NONE;
  det->last_n = 0;
}

gboolean
sharpness_freeze_detector_has_reference (const SharpnessFreezeDetector * det)
{
  return det->have_reference;
}

/* activate(): the time from the reference to this frame in microseconds. */
static gint64
duration_us (const SharpnessFreezeDetector * det, guint64 pts)
{
  const SharpnessFreezeSettings *s = &det->settings;
  const SharpnessTimeBase *tb = &s->time_base;
  gboolean discontinuity = det->ref_pts == SHARPNESS_TIME_NONE ||
      pts == SHARPNESS_TIME_NONE;
  gint64 delta = 0;

  if (!discontinuity) {
    if (sharpness_time_base_valid (tb)) {
      gint64 a = sharpness_ffmpeg_ticks_from_ns (pts, tb);
      gint64 b = sharpness_ffmpeg_ticks_from_ns (det->ref_pts, tb);
      discontinuity = a < b;
      delta = a - b;
    } else {
      discontinuity = pts < det->ref_pts;
      delta = (gint64) (pts - det->ref_pts);
    }
  }

  if (discontinuity) {
    /* frame_rate.num > 0 ? av_rescale_q (n - reference_n,
     * av_inv_q (frame_rate), AV_TIME_BASE_Q) : 0 */
    if (s->fps_n > 0 && s->fps_d > 0)
      return sharpness_ffmpeg_rescale ((gint64) (det->n - det->ref_n),
          s->fps_d * 1000000, s->fps_n);
    return 0;
  }
  /* av_rescale_q (frame->pts - reference->pts, time_base, AV_TIME_BASE_Q) */
  if (sharpness_time_base_valid (tb))
    return sharpness_ffmpeg_rescale (delta, tb->num * 1000000, tb->den);
  return sharpness_ffmpeg_rescale (delta, 1, 1000);
}

/* One frame: @sad (0 when unknown) and the @mafd it gives. */
static SharpnessFreezeEvents
push_mafd (SharpnessFreezeDetector * det, guint64 pts, guint64 sad,
    gdouble mafd, SharpnessFreezeResult * res)
{
  SharpnessFreezeResult r = {
    .start = SHARPNESS_TIME_NONE,
    .end = SHARPNESS_TIME_NONE,
    .duration = SHARPNESS_TIME_NONE,
    .duration_us = -1,
  };
  const guint64 index = det->n;

  det->n++;
  if (det->have_reference) {
    gint64 d = duration_us (det, pts);

    r.compared = TRUE;
    r.sad = sad;
    r.mafd = mafd;
    r.frozen = r.mafd <= det->settings.noise;
    if (d >= det->min_duration_us) {
      if (!det->frozen)
        r.events |= SHARPNESS_FREEZE_EVENT_START;
      if (!r.frozen) {
        r.events |= SHARPNESS_FREEZE_EVENT_END;
        r.end = pts;
        r.end_frame = index;
        r.duration_us = d;
        r.duration = (guint64) d * 1000;
      }
      if (r.events) {
        r.start = det->ref_pts;
        r.start_frame = det->ref_n - 1;
      }
      det->frozen = r.frozen;
    }
  }

  if (!r.frozen) {
    r.keep_reference = TRUE;
    det->have_reference = TRUE;
    det->ref_pts = pts;
    det->ref_n = det->n;
  }
  det->last_pts = pts;
  det->last_n = index;

  if (res)
    *res = r;
  return r.events;
}

SharpnessFreezeEvents
sharpness_freeze_detector_push (SharpnessFreezeDetector * det, guint64 pts,
    guint64 sad, guint64 count, SharpnessFreezeResult * res)
{
  return push_mafd (det, pts, sad, sharpness_freeze_mafd (sad, count,
          det->settings.depth), res);
}

SharpnessFreezeEvents
sharpness_freeze_detector_push_mafd (SharpnessFreezeDetector * det,
    guint64 pts, gdouble mafd, SharpnessFreezeResult * res)
{
  /* FFmpeg compares the MAFD itself with n: the verdict is the one the
   * SAD it came from gives; the SAD is not known (0 in @res). */
  return push_mafd (det, pts, 0, mafd, res);
}

SharpnessFreezeEvents
sharpness_freeze_detector_finish (SharpnessFreezeDetector * det,
    SharpnessFreezeResult * res)
{
  SharpnessFreezeResult r = {
    .start = SHARPNESS_TIME_NONE,
    .end = SHARPNESS_TIME_NONE,
    .duration = SHARPNESS_TIME_NONE,
    .duration_us = -1,
  };

  if (det->frozen && det->have_reference) {
    r.events = SHARPNESS_FREEZE_EVENT_OPEN_AT_EOS;
    r.start = det->ref_pts;
    r.start_frame = det->ref_n - 1;
    r.end = det->last_pts;
    r.end_frame = det->last_n;
  }
  sharpness_freeze_detector_reset (det);
  if (res)
    *res = r;
  return r.events;
}
