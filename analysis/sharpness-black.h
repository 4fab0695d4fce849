/* Black frames and black intervals exactly as FFmpeg's blackdetect filter
 * (libavfilter/vf_blackdetect.c, FFmpeg 5.1 and 7.1) finds them.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain GLib, no GStreamer, no allocation per frame.  Three layers, each
 * usable alone:
 *
 *  1. The pixel threshold: the integer FFmpeg derives from pixel_black_th,
 *     the luma bit depth and the range (sharpness_black_pixel_threshold).
 *  2. The count: luma samples <= that threshold, over the whole luma plane
 *     (sharpness_black_count_plane and friends; sharpness_black_sample_at
 *     is the per-sample rule a GPU kernel repeats in its own pass).
 *  3. The run state machine (SharpnessBlackDetector): a frame is black when
 *     count / (width * height) >= picture_black_ratio_th; a run of black
 *     frames starts at the pts of its first frame and ends at the pts of
 *     the first frame that is not black (or, at end of stream, at the pts
 *     of the last frame: FFmpeg's own FIXME); it is reported when
 *     end - start >= black_min_duration.
 *
 * Definitions, the FFmpeg 5.1 / 7.1 differences and the validation:
 * docs/reference/black-freeze.md.
 */
#ifndef SHARPNESS_BLACK_H
#define SHARPNESS_BLACK_H

#include <glib.h>

#include "sharpness-ffmpeg-time.h"
#include "sharpness-plane.h"

G_BEGIN_DECLS

/* FFmpeg's defaults (options pix_th, pic_th, d). */
#define SHARPNESS_BLACK_DEFAULT_PIXEL_TH 0.10
#define SHARPNESS_BLACK_DEFAULT_PICTURE_TH 0.98
#define SHARPNESS_BLACK_DEFAULT_MIN_DURATION (G_GUINT64_CONSTANT (2000000000))

/* ---- 1. The pixel threshold ------------------------------------------ */

/* The largest luma sample value that counts as black, as FFmpeg computes
 * it in double precision and truncates to an unsigned int:
 *
 *   full range:    pixel_black_th * (2^depth - 1)
 *   limited range: 16 * 2^(depth-8) + pixel_black_th * 219 * 2^(depth-8)
 *
 * (pixel_black_th in [0, 1], depth 8..16).  With the default 0.10:
 * 8-bit limited 37, full 25; 10-bit limited 151, full 102.
 *
 * @full_range: what the caller must pass for FFmpeg's decision
 * (sharpness_black_ffmpeg_full_range() spells out both versions' rules):
 *   FFmpeg 7.1 (per frame): the frame's color_range is JPEG ("pc"), or its
 *   format is a yuvj one.  A frame that does not say its range gets the
 *   range of its filter link from the buffer source: limited ("tv") for
 *   YUV, but full for gray formats (libavfilter treats gray as full range,
 *   as swscale does).  In GStreamer terms: pass TRUE when the caps'
 *   colorimetry range is GST_VIDEO_COLOR_RANGE_0_255 -- GStreamer's
 *   default colorimetry of the GRAY formats is 0_255 too, so this one rule
 *   reproduces 7.1 for every format; GST_VIDEO_COLOR_RANGE_UNKNOWN counts
 *   as unspecified (full for gray, limited otherwise).
 *   FFmpeg 5.1 (once, from the link's pixel format): only the yuvj formats
 *   (yuvj411p/420p/422p/440p/444p, all 8-bit) are full; a yuv420p or gray
 *   frame flagged full range, and every high-bit-depth frame, uses the
 *   limited formula.  FFmpeg 5.1's H.264, HEVC and MJPEG decoders output
 *   yuvj for full-range 8-bit streams, so on those the two versions
 *   agree; they differ for gray, for full-range 10-bit, VP9 and AV1
 *   video and for raw or filtered frames whose range flag says full on a
 *   non-yuvj format (docs/reference/black-freeze.md). */
guint sharpness_black_pixel_threshold (gdouble pixel_black_th, guint depth,
    gboolean full_range);

typedef enum
{
  /* FFmpeg 7.1: full when the frame says full range, or yuvj, or gray
   * without a range. */
  SHARPNESS_BLACK_RANGE_RULE_FFMPEG_7_1,
  /* FFmpeg 5.1: full only for the (8-bit) yuvj pixel formats. */
  SHARPNESS_BLACK_RANGE_RULE_FFMPEG_5_1
} SharpnessBlackRangeRule;

/* The range a frame says it has (FFmpeg's AVFrame.color_range; GStreamer's
 * colorimetry range: 16_235 LIMITED, 0_255 FULL, UNKNOWN UNSPECIFIED). */
typedef enum
{
  SHARPNESS_BLACK_RANGE_UNSPECIFIED,
  SHARPNESS_BLACK_RANGE_LIMITED,
  SHARPNESS_BLACK_RANGE_FULL
} SharpnessBlackRange;

/* What FFmpeg's range decision needs to know about the pixel format. */
typedef enum
{
  /* Planar, semi-planar or packed YUV (yuv420p, nv12, uyvy422, v210...). */
  SHARPNESS_BLACK_FORMAT_YUV,
  /* The yuvj formats: full range by definition. */
  SHARPNESS_BLACK_FORMAT_YUVJ,
  /* gray, gray10le, gray16le...: full range in 7.1 unless flagged. */
  SHARPNESS_BLACK_FORMAT_GRAY
} SharpnessBlackFormatKind;

/* The @full_range argument of sharpness_black_pixel_threshold() for a frame
 * of format @kind whose range flag is @range, under @rule. */
gboolean sharpness_black_ffmpeg_full_range (SharpnessBlackRangeRule rule,
    SharpnessBlackFormatKind kind, SharpnessBlackRange range);

/* ---- 2. The count ---------------------------------------------------- */

/* The native-depth luma value of pixel @x of the row starting at @row:
 * SHARPNESS_SAMPLES_Y8: the byte at x * pixel_stride (GRAY8, planar and
 * semi-planar 8-bit Y; packed 4:2:2 read in place: UYVY = data + 1,
 * YUY2/YVYU = data + 0, pixel_stride 2);
 * SHARPNESS_SAMPLES_Y16LE: the little-endian 16-bit word at x *
 * pixel_stride shifted right by `shift` (I420_10LE: shift 0, P010: 6, so
 * that the value is what FFmpeg's converted yuv420p10 frame holds).
 * Not defined for SHARPNESS_SAMPLES_RGB8 (FFmpeg converts RGB to YUV
 * before blackdetect; that conversion is not reproduced here). */
SHARPNESS_HD unsigned
sharpness_black_sample_at (const SharpnessPlane * p, const uint8_t * row,
    int x)
{
  const uint8_t *px = row + (size_t) x * p->pixel_stride;

  if (p->samples == SHARPNESS_SAMPLES_Y16LE)
    return (unsigned) (px[0] | ((unsigned) px[1] << 8)) >> p->shift;
  return px[0];
}

/* FFmpeg's comparison: a sample is black when it is <= the threshold. */
SHARPNESS_HD int
sharpness_black_sample_is_black (unsigned value, unsigned threshold)
{
  return value <= threshold;
}

/* Black samples of the whole plane @luma (width x height pixels) for
 * @threshold.  FALSE (and *count 0) for RGB8 samples. */
gboolean sharpness_black_count_plane (const SharpnessPlane * luma,
    guint threshold, guint64 * count);

/* The same for a v210 frame (10-bit 4:2:2 packed, 6 pixels in 16 bytes,
 * row stride @stride bytes): its luma samples, as FFmpeg's v210 decoder
 * hands them to blackdetect in a yuv422p10 frame. */
guint64 sharpness_black_count_v210 (const guint8 * data, gsize stride,
    gint width, gint height, guint threshold);

/* The luma value of pixel @x of a v210 row. */
guint sharpness_black_v210_luma (const guint8 * row, gint x);

/* ---- 3. Black frames and intervals ----------------------------------- */

/* FFmpeg's per-frame decision: (double) black / (double) pixels >=
 * @picture_black_ratio_th.  @pixels is width * height of the luma plane. */
gboolean sharpness_black_frame_is_black (guint64 black, guint64 pixels,
    gdouble picture_black_ratio_th);

typedef struct
{
  gdouble picture_black_ratio_th;       /* pic_th, 0..1 */
  guint64 min_duration;         /* d, in ns */
  /* Optional: FFmpeg's time base of the stream ({0, 0}: none).  FFmpeg
   * compares end - start with (int64) (d / time_base) ticks, d truncated
   * to whole ticks: with a time base whose tick does not divide d
   * (1001/30000 and d = 2 s: 59 ticks, 1.969 s) only this reproduces
   * FFmpeg's decision.  Without it the comparison is end - start >=
   * min_duration in ns, which is FFmpeg's whenever d is a whole number
   * of ticks. */
  SharpnessTimeBase time_base;
} SharpnessBlackSettings;

/* FFmpeg's defaults: pic_th 0.98, d 2 s, no time base. */
void sharpness_black_settings_init (SharpnessBlackSettings * s);

typedef enum
{
  SHARPNESS_BLACK_EVENT_NONE = 0,
  /* This frame starts a run of black frames: FFmpeg sets the frame's
   * metadata lavfi.black_start (whatever the run's final length). */
  SHARPNESS_BLACK_EVENT_RUN_START = 1 << 0,
  /* This frame, the first non-black one, ends the run: FFmpeg sets
   * lavfi.black_end on it (whatever the run's length). */
  SHARPNESS_BLACK_EVENT_RUN_END = 1 << 1,
  /* The run just ended was at least min_duration long: FFmpeg logs
   * "black_start:S black_end:E black_duration:D".  Comes with RUN_END,
   * or alone from sharpness_black_detector_finish(). */
  SHARPNESS_BLACK_EVENT_INTERVAL = 1 << 2
} SharpnessBlackEvents;

typedef struct
{
  SharpnessBlackEvents events;
  gboolean black;               /* this frame is black */
  gdouble ratio;                /* black / pixels */
  /* RUN_START: start.  RUN_END and INTERVAL: the run's start (pts of its
   * first frame), end (pts of the frame that ended it; at end of stream
   * the pts of the last frame) and duration = end - start, all in ns. */
  guint64 start, end, duration;
  /* Indices (0-based, counted from init/reset) of the run's first frame
   * and of the frame whose pts is its end. */
  guint64 start_frame, end_frame;
  /* From finish() only: the run was still open at end of stream; and
   * the end of its last frame (pts + duration, SHARPNESS_TIME_NONE without
   * a duration), which FFmpeg's FIXME says the end should have been. */
  gboolean at_eos;
  guint64 last_frame_end;
} SharpnessBlackResult;

typedef struct
{
  SharpnessBlackSettings settings;

  /* private */
  gint64 min_ticks;             /* d in time base ticks, FFmpeg's rounding */
  guint64 frames;               /* frames pushed */
  gboolean started;             /* a run is open */
  guint64 start, start_frame;
  gboolean have_last;
  guint64 last_pts, last_duration, last_frame;
} SharpnessBlackDetector;

/* @settings NULL: FFmpeg's defaults. */
void sharpness_black_detector_init (SharpnessBlackDetector * det,
    const SharpnessBlackSettings * settings);

/* Flush: forgets the open run (no event) and the frame count; keeps the
 * settings.  FFmpeg has no flush: a new filter graph starts afresh. */
void sharpness_black_detector_reset (SharpnessBlackDetector * det);

/* One frame: its @pts and @duration in ns, its @black samples out of
 * @pixels (width * height of the luma plane).  Fills @res (may be NULL)
 * and returns its events.  A frame without pts (SHARPNESS_TIME_NONE) is
 * judged (res->black) but neither starts nor ends a run: FFmpeg would use
 * AV_NOPTS_VALUE as a time, which has no meaning. */
SharpnessBlackEvents sharpness_black_detector_push (SharpnessBlackDetector *
    det, guint64 pts, guint64 duration, guint64 black, guint64 pixels,
    SharpnessBlackResult * res);

/* The same for a frame measured elsewhere, given as the ratio black /
 * pixels (an element's meta carries it: sharpness-meta.h): FFmpeg's
 * decision compares that very double, so the verdict and the runs are
 * those the counts would give. */
SharpnessBlackEvents sharpness_black_detector_push_ratio
    (SharpnessBlackDetector * det, guint64 pts, guint64 duration,
    gdouble ratio, SharpnessBlackResult * res);

/* End of stream: a run still open ends at the pts of the last frame;
 * INTERVAL (with res->at_eos) when it lasted min_duration (FFmpeg logs it
 * from its uninit, with no lavfi.black_end metadata), else NONE.  The
 * detector is reset afterwards. */
SharpnessBlackEvents sharpness_black_detector_finish (SharpnessBlackDetector
    * det, SharpnessBlackResult * res);

G_END_DECLS
#endif /* SHARPNESS_BLACK_H */
