/* Frozen video exactly as FFmpeg's freezedetect filter
 * (libavfilter/vf_freezedetect.c, FFmpeg 5.1 and 7.1) finds it.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain GLib, no GStreamer, no allocation per frame.  Three layers:
 *
 *  1. The difference: the exact integer sum of absolute differences (SAD)
 *     of a frame and the reference frame over the samples FFmpeg compares
 *     (SharpnessFreezeLayout: every plane of the pixel format, alpha
 *     included, chroma rows floor (h / 2^log2_chroma_h) and chroma row
 *     widths ceil (w / 2^log2_chroma_w)), and the MAFD = SAD / samples /
 *     2^depth in FFmpeg's double arithmetic.
 *  2. The noise tolerance `n` (linear, or in dB as FFmpeg converts it) and
 *     the minimum duration `d`.
 *  3. The state machine (SharpnessFreezeDetector): a frame is frozen when
 *     its MAFD against the reference is <= n.  The reference is the last
 *     frame that was not frozen: the caller keeps it (on the GPU, in device
 *     memory) and replaces it whenever a push says keep_reference.  A freeze
 *     starts at the reference's pts and ends at the pts of the first frame
 *     that is not frozen; it is reported (freeze_start, then freeze_duration
 *     and freeze_end) once it has lasted d.  FFmpeg reports nothing for a
 *     freeze still open at end of stream (no freeze_end).
 *
 * Definitions, FFmpeg 5.1 / 7.1 and the validation: docs/reference/black-freeze.md.
 */
#ifndef SHARPNESS_FREEZE_H
#define SHARPNESS_FREEZE_H

#include <glib.h>

#include "sharpness-ffmpeg-time.h"

G_BEGIN_DECLS

/* FFmpeg's defaults: n = 0.001 (the option's default is that double; "-60dB"
 * converts to the same double), d = 2 s. */
#define SHARPNESS_FREEZE_DEFAULT_NOISE 0.001
#define SHARPNESS_FREEZE_DEFAULT_MIN_DURATION (G_GUINT64_CONSTANT (2000000000))

/* ---- 1. The difference ----------------------------------------------- */

/* The FFmpeg pixel formats (by their FFmpeg names) freezedetect accepts and
 * whose geometry this library knows.  Map a GStreamer format to the format
 * FFmpeg would see: I420/YV12 -> yuv420p (the plane order does not change
 * the sum), Y42B -> yuv422p, Y444 -> yuv444p, I420_10LE -> yuv420p10le,
 * GRAY8 -> gray, GRAY16_LE -> gray16le, NV12, NV21, NV16, UYVY ->
 * uyvy422, YUY2 -> yuyv422, YVYU -> yvyu422, A420 -> yuva420p, RGB ->
 * rgb24, BGR -> bgr24, RGBA, BGRA, ARGB, ABGR, GBR -> gbrp...  Formats
 * FFmpeg converts before freezedetect (P010, RGBx/xRGB) are not listed:
 * the sum of the converted frame is not the sum of the raw one.  v210 is
 * the exception: FFmpeg's v210 decoder unpacks it to yuv422p10le without
 * changing a sample, so SHARPNESS_FREEZE_FORMAT_V210 reads the packed
 * words in place and sums what freezedetect sums on that yuv422p10le. */
typedef enum
{
  SHARPNESS_FREEZE_FORMAT_INVALID = 0,
  SHARPNESS_FREEZE_FORMAT_GRAY8,        /* gray */
  SHARPNESS_FREEZE_FORMAT_GRAY9,        /* gray9le */
  SHARPNESS_FREEZE_FORMAT_GRAY10,       /* gray10le */
  SHARPNESS_FREEZE_FORMAT_GRAY12,       /* gray12le */
  SHARPNESS_FREEZE_FORMAT_GRAY14,       /* gray14le */
  SHARPNESS_FREEZE_FORMAT_GRAY16,       /* gray16le */
  SHARPNESS_FREEZE_FORMAT_YUV410P,
  SHARPNESS_FREEZE_FORMAT_YUV411P,
  SHARPNESS_FREEZE_FORMAT_YUV420P,
  SHARPNESS_FREEZE_FORMAT_YUV422P,
  SHARPNESS_FREEZE_FORMAT_YUV440P,
  SHARPNESS_FREEZE_FORMAT_YUV444P,
  SHARPNESS_FREEZE_FORMAT_YUVJ411P,
  SHARPNESS_FREEZE_FORMAT_YUVJ420P,
  SHARPNESS_FREEZE_FORMAT_YUVJ422P,
  SHARPNESS_FREEZE_FORMAT_YUVJ440P,
  SHARPNESS_FREEZE_FORMAT_YUVJ444P,
  SHARPNESS_FREEZE_FORMAT_YUV420P9,     /* little-endian, as all below */
  SHARPNESS_FREEZE_FORMAT_YUV422P9,
  SHARPNESS_FREEZE_FORMAT_YUV444P9,
  SHARPNESS_FREEZE_FORMAT_YUV420P10,
  SHARPNESS_FREEZE_FORMAT_YUV422P10,
  SHARPNESS_FREEZE_FORMAT_YUV440P10,
  SHARPNESS_FREEZE_FORMAT_YUV444P10,
  SHARPNESS_FREEZE_FORMAT_YUV420P12,
  SHARPNESS_FREEZE_FORMAT_YUV422P12,
  SHARPNESS_FREEZE_FORMAT_YUV440P12,
  SHARPNESS_FREEZE_FORMAT_YUV444P12,
  SHARPNESS_FREEZE_FORMAT_YUV420P14,
  SHARPNESS_FREEZE_FORMAT_YUV422P14,
  SHARPNESS_FREEZE_FORMAT_YUV444P14,
  SHARPNESS_FREEZE_FORMAT_YUV420P16,
  SHARPNESS_FREEZE_FORMAT_YUV422P16,
  SHARPNESS_FREEZE_FORMAT_YUV444P16,
  SHARPNESS_FREEZE_FORMAT_YUVA420P,
  SHARPNESS_FREEZE_FORMAT_YUVA422P,
  SHARPNESS_FREEZE_FORMAT_YUVA444P,
  SHARPNESS_FREEZE_FORMAT_YUVA420P9,
  SHARPNESS_FREEZE_FORMAT_YUVA422P9,
  SHARPNESS_FREEZE_FORMAT_YUVA444P9,
  SHARPNESS_FREEZE_FORMAT_YUVA420P10,
  SHARPNESS_FREEZE_FORMAT_YUVA422P10,
  SHARPNESS_FREEZE_FORMAT_YUVA444P10,
  SHARPNESS_FREEZE_FORMAT_YUVA420P16,
  SHARPNESS_FREEZE_FORMAT_YUVA422P16,
  SHARPNESS_FREEZE_FORMAT_YUVA444P16,
  SHARPNESS_FREEZE_FORMAT_NV12,
  SHARPNESS_FREEZE_FORMAT_NV21,
  SHARPNESS_FREEZE_FORMAT_NV16,
  SHARPNESS_FREEZE_FORMAT_YUYV422,
  SHARPNESS_FREEZE_FORMAT_UYVY422,
  SHARPNESS_FREEZE_FORMAT_YVYU422,
  SHARPNESS_FREEZE_FORMAT_YA8,
  SHARPNESS_FREEZE_FORMAT_RGB24,
  SHARPNESS_FREEZE_FORMAT_BGR24,
  SHARPNESS_FREEZE_FORMAT_ARGB,
  SHARPNESS_FREEZE_FORMAT_RGBA,
  SHARPNESS_FREEZE_FORMAT_ABGR,
  SHARPNESS_FREEZE_FORMAT_BGRA,
  SHARPNESS_FREEZE_FORMAT_GBRP,
  SHARPNESS_FREEZE_FORMAT_GBRP9,
  SHARPNESS_FREEZE_FORMAT_GBRP10,
  SHARPNESS_FREEZE_FORMAT_GBRP12,
  SHARPNESS_FREEZE_FORMAT_GBRP14,
  SHARPNESS_FREEZE_FORMAT_GBRP16,
  SHARPNESS_FREEZE_FORMAT_GBRAP,
  SHARPNESS_FREEZE_FORMAT_GBRAP10,
  SHARPNESS_FREEZE_FORMAT_GBRAP12,
  SHARPNESS_FREEZE_FORMAT_GBRAP16,
  /* "v210": GStreamer's v210 (and FFmpeg's v210 codec), compared as the
   * yuv422p10le frame FFmpeg's decoder makes of it. */
  SHARPNESS_FREEZE_FORMAT_V210,
  SHARPNESS_FREEZE_N_FORMATS
} SharpnessFreezeFormat;

/* The format of FFmpeg name @name ("yuv420p", "yuv420p10le", "gray", ...;
 * "yuv420p10" without the endianness suffix too), INVALID if unknown. */
SharpnessFreezeFormat sharpness_freeze_format_from_name (const gchar * name);
const gchar *sharpness_freeze_format_name (SharpnessFreezeFormat format);

/* What FFmpeg compares for one frame geometry (config_input): plane p
 * spans width[p] samples (av_image_get_linesize >> (depth > 8)) of
 * height[p] rows (h >> log2_chroma_h for planes 1 and 2, h otherwise);
 * planes of width 0 are skipped.
 *
 * v210 is one plane of little-endian 32-bit words (bytes_per_sample 4),
 * three 10-bit samples each in bits 0-29, 16 bytes per group of six
 * pixels: width[0] is the words of the groups holding pixels, h rows.
 * The samples come in the order Cb0 Y0 Cr0 Y1 Cb1 Y2 Cr1 Y3 Cb2 Y4 Cr2 Y5,
 * and FFmpeg's v210 decoder (decode_row) takes a row's first v210_samples
 * = w + 2 ceil (w / 2) of them: Y w samples, U and V ceil (w / 2), the
 * row widths of the yuv422p10le planes it writes.  The SAD is over those
 * samples, the rest of the last group and bits 30-31 left out, and count
 * is yuv422p10le's (h (w + 2 ceil (w / 2))): MAFD and SAD are FFmpeg's on
 * the decoded frame. */
typedef struct
{
  SharpnessFreezeFormat format;
  gint n_planes;                /* planes holding data: 1..4 */
  gint width[4];                /* samples compared per row */
  gint height[4];               /* rows compared */
  /* 1, 2 (little-endian 16-bit words), or 4 (v210's 32-bit words) */
  gint bytes_per_sample;
  guint depth;                  /* bits per sample of component 0 */
  /* The format's chroma subsampling (0 where it has none): a frame in
   * memory has ceil (h / 2^log2_chroma_h) chroma rows, one more than
   * compared when h is not a multiple. */
  gint log2_chroma_w, log2_chroma_h;
  /* The MAFD's divisor: the sum of width * height, or for v210 the
   * yuv422p10le samples, v210_samples * h. */
  guint64 count;
  /* v210: the 10-bit samples compared in a row, the first of its words'
   * (w + 2 ceil (w / 2)); 0 for every other format. */
  gint v210_samples;
} SharpnessFreezeLayout;

/* Fills @layout for a @width x @height frame of @format.  FALSE if the
 * format is invalid or the size is not positive. */
gboolean sharpness_freeze_layout_init (SharpnessFreezeLayout * layout,
    SharpnessFreezeFormat format, gint width, gint height);

/* The exact SAD of @frame and @ref (FFmpeg's ff_scene_sad_c /
 * ff_scene_sad16_c summed over the planes; for v210 that of the
 * yuv422p10le frames, read from the packed words): plane p of a frame is
 * data[p] with rows stride[p] bytes apart (at least the layout's
 * width[p] * bytes_per_sample).  The sum is symmetric in the two frames. */
guint64 sharpness_freeze_sad (const SharpnessFreezeLayout * layout,
    const guint8 * const frame[4], const gsize frame_stride[4],
    const guint8 * const ref[4], const gsize ref_stride[4]);

/* FFmpeg's MAFD: (double) sad / count / (1ULL << depth), left to right in
 * double precision. */
gdouble sharpness_freeze_mafd (guint64 sad, guint64 count, guint depth);

/* ---- 2. Noise tolerance --------------------------------------------- */

/* @db decibels as FFmpeg's option parser turns "<db>dB" into a ratio
 * (av_strtod: ff_exp10 (db / 20) = exp2 (log2 (10) * (db / 20))): -60 dB
 * is exactly 0.001; -40 dB is 0.010000000000000002, not 0.01. */
gdouble sharpness_freeze_noise_from_db (gdouble db);

/* Parses FFmpeg's spelling of n: a number, or a number followed by "dB"
 * (e.g. "0.001", "-60dB").  FALSE if @text is not one, or the value is
 * outside FFmpeg's range [0, 1]. */
gboolean sharpness_freeze_parse_noise (const gchar * text, gdouble * noise);

/* ---- 3. Frozen frames and freezes ------------------------------------ */

typedef struct
{
  gdouble noise;                /* n, linear, 0..1 */
  /* d in ns; FFmpeg keeps it in microseconds (AV_OPT_TYPE_DURATION), so
   * it is used truncated to whole microseconds. */
  guint64 min_duration;
  guint depth;                  /* bits per sample: the MAFD's 2^depth */
  /* Optional: FFmpeg's time base of the stream ({0, 0}: none).  FFmpeg
   * measures a freeze as av_rescale_q (pts - ref_pts, time_base, 1/1000000);
   * with it the ticks are recovered from the ns pts and that is computed;
   * without, the microseconds are the ns difference rounded to nearest, the
   * same whenever the pts are whole nanoseconds of FFmpeg's ticks. */
  SharpnessTimeBase time_base;
  /* Optional: the stream's frame rate ({0, 0}: unknown).  FFmpeg measures
   * a freeze in frames / frame rate when a pts is missing or goes back. */
  gint64 fps_n, fps_d;
} SharpnessFreezeSettings;

/* FFmpeg's defaults (n 0.001, d 2 s), depth 8, no time base or rate. */
void sharpness_freeze_settings_init (SharpnessFreezeSettings * s);

typedef enum
{
  SHARPNESS_FREEZE_EVENT_NONE = 0,
  /* FFmpeg sets lavfi.freezedetect.freeze_start (= the reference's pts) on
   * this frame: the first frame at which a freeze has lasted d, or the
   * frame that ends a freeze lasting d at once (then with END too). */
  SHARPNESS_FREEZE_EVENT_START = 1 << 0,
  /* This frame is not frozen and ends a reported freeze: FFmpeg sets
   * lavfi.freezedetect.freeze_duration and freeze_end (= this pts). */
  SHARPNESS_FREEZE_EVENT_END = 1 << 1,
  /* From finish() only: a reported freeze was still open at end of
   * stream.  FFmpeg logs and sets nothing for it. */
  SHARPNESS_FREEZE_EVENT_OPEN_AT_EOS = 1 << 2
} SharpnessFreezeEvents;

typedef struct
{
  SharpnessFreezeEvents events;
  gboolean compared;            /* there was a reference (not the first frame) */
  guint64 sad;                  /* as pushed (0 if not compared) */
  gdouble mafd;                 /* FFmpeg's MAFD (0 if not compared) */
  gboolean frozen;              /* compared and mafd <= n */
  /* The caller must keep this frame as the new reference (every frame not
   * frozen, the first one included), dropping the old one. */
  gboolean keep_reference;
  /* START, END, OPEN_AT_EOS: start = the reference's pts (the first frame
   * of the freeze).  END: end = this frame's pts, and FFmpeg's
   * freeze_duration: duration_us in microseconds, duration = duration_us *
   * 1000 ns.  OPEN_AT_EOS: end = the last frame's pts. */
  guint64 start, end, duration;
  gint64 duration_us;
  /* Indices (0-based, counted from init/reset) of the reference and of
   * the frame whose pts is the end. */
  guint64 start_frame, end_frame;
} SharpnessFreezeResult;

typedef struct
{
  SharpnessFreezeSettings settings;

  /* private */
  gint64 min_duration_us;
  guint64 n;                    /* frames pushed: FFmpeg's s->n */
  gboolean have_reference;
  guint64 ref_pts, ref_n;
  gboolean frozen;              /* FFmpeg's s->frozen: a freeze was reported */
  guint64 last_pts, last_n;
} SharpnessFreezeDetector;

/* @settings NULL: sharpness_freeze_settings_init()'s. */
void sharpness_freeze_detector_init (SharpnessFreezeDetector * det,
    const SharpnessFreezeSettings * settings);

/* Flush: drops the reference (the caller's next push is a first frame,
 * and keep_reference follows) and any freeze, without an event. */
void sharpness_freeze_detector_reset (SharpnessFreezeDetector * det);

/* TRUE when the detector has a reference: the caller must then compute the
 * SAD of the next frame against its kept reference frame. */
gboolean sharpness_freeze_detector_has_reference (const SharpnessFreezeDetector
    * det);

/* One frame: its @pts (ns, SHARPNESS_TIME_NONE if unknown) and, when the
 * detector has a reference, the SAD of this frame against it out of
 * @count samples (SharpnessFreezeLayout's count); both are ignored
 * otherwise.  Fills @res (may be NULL) and returns its events. */
SharpnessFreezeEvents sharpness_freeze_detector_push (SharpnessFreezeDetector
    * det, guint64 pts, guint64 sad, guint64 count,
    SharpnessFreezeResult * res);

/* The same for a frame measured elsewhere, given as its MAFD against the
 * reference (an element's meta carries it: sharpness-meta.h); ignored
 * when the detector has no reference.  res->sad is 0. */
SharpnessFreezeEvents sharpness_freeze_detector_push_mafd
    (SharpnessFreezeDetector * det, guint64 pts, gdouble mafd,
    SharpnessFreezeResult * res);

/* End of stream: OPEN_AT_EOS if a reported freeze is still open (FFmpeg
 * reports nothing for it), else NONE.  The detector is reset afterwards. */
SharpnessFreezeEvents sharpness_freeze_detector_finish (SharpnessFreezeDetector
    * det, SharpnessFreezeResult * res);

G_END_DECLS
#endif /* SHARPNESS_FREEZE_H */
