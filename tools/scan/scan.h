/* sharpness-scan: what the scanner, its outputs and its report share.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SCAN_H
#define SCAN_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "sharpness-blur-segments.h"
#include "sharpness-content.h"
#include "sharpness-metric.h"

G_BEGIN_DECLS

#define SCAN_MAX_METRICS SHARPNESS_METRIC_COUNT

/* gst_clear_sample() is 1.24. */
#define scan_clear_sample(sp) G_STMT_START { \
  if (*(sp)) { gst_sample_unref (*(sp)); *(sp) = NULL; } } G_STMT_END

/* The version of the JSON output (docs/reference/scan-report.schema.json): bumped
 * when a field changes or is added. */
#define SCAN_SCHEMA_VERSION 3

/* A frame's state when it has none: no score, so never judged. */
#define SCAN_STATE_NONE SHARPNESS_CONTENT_N_STATES

/* The command line, after parsing. */
typedef struct
{
  SharpnessMetric metrics[SCAN_MAX_METRICS];
  guint n_metrics;              /* metrics[0] decides blurry */
  gdouble threshold, relative_threshold;
  guint window;
  gdouble min_duration;         /* s */
  guint max_gap;
  gboolean cpu;                 /* --cpu */
  gboolean gpu_decode;          /* GPU decoders preferred (not --cpu, and
                                 * the CUDA backend is usable) */
  guint jobs;
  gboolean quiet;
  /* Per input: stop after this much stream time (s) or this many frames;
   * 0: no limit. */
  gdouble max_duration;
  guint64 max_frames;
  /* Content states: the first element's properties as it took them
   * (scan-content.c): --detect's kinds and flat, and the parameters of
   * each. */
  guint detect;                 /* SharpnessDetect */
  gdouble black_pixel_threshold, black_ratio;
  guint64 black_min_duration;   /* ns */
  gdouble freeze_noise;         /* dB */
  guint64 freeze_min_duration;  /* ns */
  gdouble flat_threshold;
  /* --json-full: every frame and the thumbnails in the JSON. */
  gboolean json_full;
  /* --shard: this run's part of the input list, of inputs_total inputs. */
  guint shard_i, shard_n;
  guint inputs_total;
} ScanSettings;

/* One frame: scores[] holds n_metrics doubles (NaN: unscored). */
typedef struct
{
  guint64 pts;                  /* stream time, ns, or GST_CLOCK_TIME_NONE */
  guint blurry:1;
  /* Flagged corrupted by the decoder, or the first frame after lost
   * ones: its score and verdict are unreliable. */
  guint damaged:1;
  guint state:3;                /* SharpnessContentState, SCAN_STATE_NONE */
  /* The measurements behind the state (NaN: not measured). */
  gdouble black_ratio, freeze_mafd, structure;
} ScanFrame;

/* A segment of any kind, from the end event of the content state machine
 * (analysis/sharpness-content.h).  Times in ns of stream time (not yet
 * counted from the first frame); black and freeze: FFmpeg's start, end
 * (the first frame after the stretch, or at the end of the file the last
 * frame) and duration; blur: from the first frame to the end of the last.
 * Frames inclusive. */
typedef struct
{
  SharpnessEventKind kind;
  guint64 start, end, duration;
  guint64 start_frame, end_frame;
  guint64 kind_frames;          /* blurry, black or frozen frames */
  guint64 scored_frames;        /* of the kind, with a score (black,
                                 * freeze); all (blur) */
  gdouble min, mean, max;       /* NaN when none was scored */
  guint64 worst_frame;
  gdouble worst_score;
  guint64 thumb_frame;          /* the thumbnail's frame, G_MAXUINT64: none */
  GstSample *thumb;             /* that frame, system memory */
  gchar *jpeg_base64;           /* its thumbnail, or NULL */
  gchar *crop_base64;           /* a 1:1 crop of its centre, or NULL */
  gboolean damaged;             /* overlaps a damaged stretch */
} ScanSegment;

/* A frame size and the first frame that has it (as displayed: the
 * image-orientation tag applied). */
typedef struct
{
  guint64 frame;
  gint width, height;
} ScanSize;

/* A damaged stretch: frames lost between @first_frame and @last_frame
 * (the frames either side of the loss), or corrupted frames from the one
 * to the other.  Times in ns of stream time, NONE when unknown: for a
 * loss, from the expected time of the first lost frame to the next frame
 * that came. */
typedef struct
{
  guint64 first_frame, last_frame;
  guint64 start, end;
  guint64 lost_frames, corrupted_frames;
} ScanDamage;

typedef enum
{
  SCAN_KIND_VIDEO,
  SCAN_KIND_IMAGE               /* a still image: one frame of an image
                                 * codec (JPEG, PNG...) */
} ScanKind;

/* Why a scan stopped before the end of its input. */
typedef enum
{
  SCAN_STOP_NONE,
  SCAN_STOP_DURATION,           /* --duration */
  SCAN_STOP_MAX_FRAMES,         /* --max-frames */
  SCAN_STOP_SIGNAL              /* SIGINT or SIGTERM */
} ScanStop;

typedef struct
{
  guint index;                  /* position in the input list (before
                                 * --shard) */
  gchar *input, *uri;
  const ScanSettings *settings;
  ScanKind kind;

  /* Stream: width and height of the first frame, as displayed. */
  gint width, height, fps_n, fps_d;
  gchar *codec, *decoder;
  gchar *format;                /* what was scored */
  gchar *decoded_format;        /* what the decoder gave */
  gboolean cuda_memory;
  gboolean interlaced;
  /* The image-orientation tag ("rotate-90"...), NULL when none. */
  gchar *orientation;
  GstVideoOrientationMethod orientation_method;
  GArray *sizes;                /* ScanSize, one per size change */
  guint video_streams;          /* in the input; the first one is scanned */
  guint64 duration;             /* ns, from the container, or NONE */
  /* Stream time of the first frame (the container's start time, e.g.
   * MPEG-TS's): every time reported counts from it.  NONE: no frame had
   * one. */
  guint64 start_time;

  /* Results: frames and n_metrics scores per frame. */
  GArray *frames;               /* ScanFrame */
  GArray *scores;               /* gdouble */
  GArray *segments;             /* ScanSegment */
  gdouble elapsed;              /* s, from start to EOS */
  gchar *error;                 /* NULL when the scan completed */
  gchar *warning;               /* first warning of the pipeline, if any */
  ScanStop stopped;
  /* What readers should know (several video streams, interlacing, the
   * decoding elements' warnings...), one line each. */
  GPtrArray *notes;

  /* Damage: lost and corrupted frames, and the warnings of the decoding
   * elements (demuxers, parsers, decoders). */
  GArray *damage;               /* ScanDamage */
  guint64 lost_frames, corrupted_frames;
  guint decoding_warnings;

  /* A still image: its frame, then its thumbnail. */
  GstSample *image;
  gchar *image_base64;
} ScanFile;

/* The file's results (scan-file.c). */
guint64 scan_file_frames (const ScanFile * f);
gdouble scan_file_score (const ScanFile * f, guint64 frame, guint metric);
/* Seconds covered by the file's frames (last end - first pts), else 0. */
gdouble scan_file_seconds (const ScanFile * f);
gdouble scan_file_blurry_seconds (const ScanFile * f);
/* Seconds of the segments of @kind. */
gdouble scan_file_kind_seconds (const ScanFile * f, SharpnessEventKind kind);
guint scan_file_kind_segments (const ScanFile * f, SharpnessEventKind kind);
/* Stream time @t (ns) in seconds since the file's first frame; NaN for
 * NONE. */
gdouble scan_file_time (const ScanFile * f, guint64 t);
/* Appends @ns as seconds with every digit it has ("1.4", "-0.04",
 * "3600"): a reader gets the nanoseconds back exactly. */
void scan_append_ns_as_seconds (GString * out, gint64 ns);
/* The time of frame @i, the same way; NaN when unknown. */
gdouble scan_file_frame_time (const ScanFile * f, guint64 i);
gboolean scan_file_damaged (const ScanFile * f);
/* The verdict on a still image: 1 blurry, 0 sharp, -1 none (only the
 * absolute threshold judges a lone frame, the relative rule needing the
 * frames before it; and a flat or black picture gets none). */
gint scan_file_image_verdict (const ScanFile * f);
/* Whether the still image's state (flat, black) leaves it without a blur
 * verdict, as such frames of a video are. */
gboolean scan_file_image_unjudged (const ScanFile * f);
/* Why an image has no verdict, for people; NULL when it has one. */
const gchar *scan_file_image_no_verdict (const ScanFile * f);
/* Why the scan stopped early, for people ("interrupted", "--duration
 * reached"...), or NULL. */
const gchar *scan_file_stop_reason (const ScanFile * f);

/* File names in outputs (scan-file.c).  A name is bytes: it may hold a
 * newline or bytes that are not UTF-8. */
/* @name for a line of text (a summary or error line): control characters
 * as \n, \r, \t or \xHH, a backslash as \\, bytes that start no valid
 * UTF-8 character as \xHH; one line of valid UTF-8 whatever the name. */
gchar *scan_name_for_line (const gchar * name);
/* @name as valid UTF-8 (the CSV, the report): bytes that start no valid
 * character become U+FFFD. */
gchar *scan_name_utf8 (const gchar * name);

/* "blurry segment", "black segment", "frozen segment" (@plural). */
const gchar *scan_kind_words (SharpnessEventKind kind, gboolean plural);

/* Outputs (scan-output.c).  Each writes the file's part; called in input
 * order. */
void scan_csv_header (GString * out, const ScanSettings * s);
void scan_csv_file (GString * out, const ScanFile * f);
void scan_json_begin (GString * out, const ScanSettings * s);
void scan_json_file (GString * out, const ScanFile * f, gboolean first);
/* @signal: the signal that interrupted the scan (0: none); @not_scanned:
 * the inputs it left unscanned. */
void scan_json_end (GString * out, gint signal, GPtrArray * not_scanned);
gchar *scan_summary_line (const ScanFile * f);

/* The HTML report (scan-report.c): the page's head, then each video
 * file's section in @out and each image's row of the images' table in
 * @images, which follows the videos. */
void scan_report_begin (GString * out, const ScanSettings * s);
void scan_report_file (GString * out, GString * images, const ScanFile * f);
void scan_report_images_begin (GString * out);
void scan_report_images_end (GString * out);
void scan_report_end (GString * out, gint signal, GPtrArray * not_scanned);

/* Thumbnails (scan-thumbs.c). */
/* A system-memory copy of @buf (a CUDA buffer is downloaded by the map),
 * as a sample of @caps (system-memory caps of @info); NULL on failure. */
GstSample *scan_thumb_copy_frame (const GstVideoInfo * info, GstCaps * caps,
    GstBuffer * buf);
/* @sample's thumbnail (320 pixels wide) as a base64 JPEG, or NULL. */
gchar *scan_thumb_jpeg (GstSample * sample);
/* Encodes the frame of each of @f's segments (thumbnail and centre crop),
 * and a still image's frame, turned as its orientation tag says, and drops
 * the frames. */
void scan_thumbs_make (ScanFile * f);

/* Nanoseconds to seconds; NONE: NaN. */
gdouble scan_ns_to_s (guint64 t);
/* "1:02:03.456" style, for people. */
gchar *scan_format_time (gdouble seconds);
/* "1:02:03" style: whole seconds, for estimates. */
gchar *scan_format_seconds (gdouble seconds);
/* The signal's name ("SIGINT"). */
const gchar *scan_signal_name (gint signal);

G_END_DECLS
#endif /* SCAN_H */
