/* sharpness-scan: find the blurry segments of recorded video files.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One pipeline per input, --jobs at a time, each
 *   uridecodebin3 ! [videoconvert !] queue ! cudasharpness (per metric) ! fakesink
 * (filesrc ! decodebin3 for local files) running unsynchronised; the
 * decoder links straight to the queue when cudasharpness takes its output
 * (a GPU decoder's frames then stay in CUDA memory), through videoconvert
 * otherwise.  A pad probe after the last cudasharpness reads
 * the scores of every frame from its GstSharpnessMeta, feeds the segment
 * tracker the element's alarms use (analysis/sharpness-blur-segments.c), and
 * keeps a copy of the worst frame of the open run for the thumbnail.
 * Results are written in input order as files complete, then freed, so
 * that memory does not grow with the number of inputs.  docs/scan.md.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gst/pbutils/pbutils.h>

#include "scan.h"
#include "sharpness-meta.h"

/* The default rule, chosen on clips with known blurs (docs/scan.md,
 * "Choosing the default rule"): the content-normalised blur effect with an
 * absolute threshold; in builds without it, the Laplacian with the relative
 * rule.  Other metrics default to the relative rule. */
#define DEFAULT_METRICS "blur-effect"
#define FALLBACK_METRICS "laplacian"
#define DEFAULT_BLUR_EFFECT_THRESHOLD 0.55
#define DEFAULT_RELATIVE 0.6
#define DEFAULT_WINDOW 25
#define DEFAULT_MIN_DURATION 0.5
#define DEFAULT_MAX_GAP 2
#define THUMB_WIDTH 320

typedef struct
{
  ScanFile file;
  GstElement *pipeline;
  guint bus_watch;

  /* Streaming thread (the probe), then the main thread after EOS. */
  SharpnessSegmentTracker tracker;
  GstSegment segment;
  GstVideoInfo vinfo;
  GstCaps *sample_caps;         /* system-memory caps of the frames */
  GstSample *open_worst;        /* worst frame of the open run */
  guint64 open_worst_frame;
  GstElement *queue;            /* where the video pad links */
  gboolean linked;

  /* Written by streaming threads, read by the main thread. */
  GMutex lock;
  guint64 done_frames;
  guint64 position;             /* stream time of the last frame */
  gboolean no_video;            /* the stream collection has no video */

  gint64 t_start;
  gboolean running, finished;
  /* Watchdog (main thread): frames seen at the last check, and when they
   * last changed. */
  guint64 watch_frames;
  gint64 watch_time;
} Job;

typedef struct
{
  ScanSettings settings;
  Job **jobs;
  guint n_jobs, next_start, next_emit, running;
  GMainLoop *loop;
  gboolean progress;
  gint64 t_start;

  gboolean starting;             /* inside start_jobs () */
  /* The CUDA context of the GPU check, given to every pipeline: one
   * context for all files instead of a new one per file. */
  GstContext *cuda_context;
  FILE *csv, *json, *html;
  gboolean summaries_to_stderr;
  gboolean any_error, any_blurry;
} Scan;

/* ------------------------------------------------------------------ */
/* Options */

static gchar *opt_metrics = NULL;
static gdouble opt_threshold = -1, opt_relative = -1;
static gint opt_window = DEFAULT_WINDOW, opt_max_gap = DEFAULT_MAX_GAP;
static gint opt_jobs = 0;
static gdouble opt_min_duration = DEFAULT_MIN_DURATION;
static gchar *opt_csv, *opt_json, *opt_report, *opt_shard, *opt_list;
static gboolean opt_cpu, opt_quiet, opt_fail, opt_version;
static gchar **opt_inputs;

static GOptionEntry entries[] = {
  {"metric", 'm', 0, G_OPTION_ARG_STRING, &opt_metrics,
      "Metrics to compute, comma-separated (default " DEFAULT_METRICS "); "
      "the first decides which frames are blurry", "LIST"},
  {"threshold", 't', 0, G_OPTION_ARG_DOUBLE, &opt_threshold,
      "Absolute threshold of the first metric, 0 = off (default: 0.55 for "
      "blur-effect, else off)", "VALUE"},
  {"relative-threshold", 'r', 0, G_OPTION_ARG_DOUBLE, &opt_relative,
      "Relative threshold, 0 = off (default: off for blur-effect, else "
      "0.6): blurry when worse than R x the median of the last WINDOW "
      "sharp frames", "R"},
  {"window", 'w', 0, G_OPTION_ARG_INT, &opt_window,
      "Frames of the relative test's reference (default 25)", "N"},
  {"min-duration", 0, 0, G_OPTION_ARG_DOUBLE, &opt_min_duration,
      "Shortest blurry segment reported, in seconds (default 0.5)", "SECONDS"},
  {"max-gap", 0, 0, G_OPTION_ARG_INT, &opt_max_gap,
      "Sharp frames a segment may contain (default 2)", "FRAMES"},
  {"csv", 0, 0, G_OPTION_ARG_FILENAME, &opt_csv,
      "Write one row per frame to FILE ('-': standard output)", "FILE"},
  {"json", 0, 0, G_OPTION_ARG_FILENAME, &opt_json,
      "Write segments and summaries to FILE ('-': standard output)", "FILE"},
  {"report", 0, 0, G_OPTION_ARG_FILENAME, &opt_report,
      "Write a self-contained HTML report to FILE", "FILE.html"},
  {"cpu", 0, 0, G_OPTION_ARG_NONE, &opt_cpu,
      "Decode and score on the CPU even when a CUDA GPU is usable", NULL},
  {"jobs", 'j', 0, G_OPTION_ARG_INT, &opt_jobs,
      "Files scanned at a time (default: 8 with GPU decoding, else a "
      "quarter of the CPU cores, at least 2)", "N"},
  {"shard", 0, 0, G_OPTION_ARG_STRING, &opt_shard,
      "Scan only inputs I, I+N, I+2N... (0-based I) of the list", "I/N"},
  {"input-list", 0, 0, G_OPTION_ARG_FILENAME, &opt_list,
      "Read more inputs from FILE, one per line ('-': standard input)",
      "FILE"},
  {"fail-on-blurry", 0, 0, G_OPTION_ARG_NONE, &opt_fail,
      "Exit with status 1 when a blurry segment is found", NULL},
  {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt_quiet,
      "No progress and no summary lines (errors are still printed)", NULL},
  {"version", 0, 0, G_OPTION_ARG_NONE, &opt_version,
      "Print the version and exit", NULL},
  {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt_inputs,
      NULL, "FILE|URI..."},
  {NULL}
};

static const gchar description[] =
    "DESCRIPTION\n"
    "  Decodes each input (a file name or a URI) with uridecodebin3 -- on the\n"
    "  GPU (nvh264dec, ...) when one is usable and not --cpu -- scores every\n"
    "  frame with the cudasharpness element, one element per metric, as fast\n"
    "  as the machine goes, and turns blurry frames into blurry segments.\n"
    "\n"
    "BLUR RULE\n"
    "  A frame is blurry when the first metric's score is worse than\n"
    "  --threshold, or worse than --relative-threshold times the median of\n"
    "  the last --window sharp frames (blurry frames stay out of that\n"
    "  reference; a scene cut restarts it). Without either option the rule\n"
    "  is blur-effect > 0.55 for the blur-effect metric (the default: it is\n"
    "  normalised by the frame's own content, so one threshold fits all\n"
    "  footage) and the relative rule with R = 0.6 for the others; giving\n"
    "  one of the two options turns the other off.\n"
    "  Blurry frames separated by at most --max-gap sharp frames form a\n"
    "  run; runs lasting --min-duration or more are the segments. The\n"
    "  element's alarms (min-blurry-duration, max-blurry-gap) use the same\n"
    "  code.\n"
    "\n"
    "OUTPUT\n"
    "  Standard output: one summary line per file. Standard error: errors,\n"
    "  and progress (percent, frames per second, ETA) on a terminal unless\n"
    "  --quiet. --csv, --json and --report write files in input order; the\n"
    "  JSON schema is docs/scan-report.schema.json.\n"
    "\n"
    "EXIT STATUS\n"
    "  0  every file scanned (no blurry segment, or no --fail-on-blurry)\n"
    "  1  --fail-on-blurry and a blurry segment was found\n"
    "  2  an input could not be scanned (the others still were), or a bad\n"
    "     command line\n"
    "\n"
    "EXAMPLES\n"
    "  sharpness-scan --report report.html clip.mp4\n"
    "  sharpness-scan --metric laplacian,tenengrad --csv frames.csv *.mkv\n"
    "  sharpness-scan --fail-on-blurry --quiet --json out.json take*.mov\n"
    "  sharpness-scan --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT \\\n"
    "      --input-list archive.txt --json part-$SLURM_ARRAY_TASK_ID.json\n"
    "\n"
    "See docs/scan.md.\n";

static gboolean
parse_metrics (ScanSettings * s, const gchar * list, GError ** error)
{
  gchar **names = g_strsplit (list, ",", -1);
  gboolean ok = TRUE;

  s->n_metrics = 0;
  for (gchar ** n = names; *n && ok; n++) {
    gchar *name = g_strstrip (*n);
    gint m = sharpness_metric_from_nick (name);

    if (!*name)
      continue;
    if (m < 0) {
      GString *known = g_string_new (NULL);
      for (gint k = 0; k < SHARPNESS_METRIC_COUNT; k++)
        g_string_append_printf (known, "%s%s", k ? ", " : "",
            sharpness_metric_info[k].nick);
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "unknown metric '%s' (known: %s)", name, known->str);
      g_string_free (known, TRUE);
      ok = FALSE;
      break;
    }
    for (guint k = 0; k < s->n_metrics; k++)
      if (s->metrics[k] == (SharpnessMetric) m) {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
            "metric '%s' given twice", name);
        ok = FALSE;
      }
    if (ok)
      s->metrics[s->n_metrics++] = m;
  }
  g_strfreev (names);
  if (ok && s->n_metrics == 0) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--metric names no metric");
    ok = FALSE;
  }
  return ok;
}

static gboolean
parse_shard (const gchar * text, guint * index, guint * count)
{
  guint64 i, n;
  gchar *end;

  i = g_ascii_strtoull (text, &end, 10);
  if (end == text || *end != '/')
    return FALSE;
  text = end + 1;
  n = g_ascii_strtoull (text, &end, 10);
  if (end == text || *end || n == 0 || i >= n || n > G_MAXUINT)
    return FALSE;
  *index = i;
  *count = n;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Streaming side */

/* A system-memory copy of @buf (a CUDA buffer is downloaded by the map). */
static GstSample *
copy_frame (Job * job, GstBuffer * buf)
{
  GstVideoFrame src, dst;
  GstBuffer *copy;
  GstSample *sample = NULL;

  if (!job->sample_caps || !gst_video_frame_map (&src, &job->vinfo, buf,
          GST_MAP_READ))
    return NULL;
  copy = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&job->vinfo),
      NULL);
  if (gst_video_frame_map (&dst, &job->vinfo, copy, GST_MAP_WRITE)) {
    if (gst_video_frame_copy (&dst, &src))
      sample = gst_sample_new (copy, job->sample_caps, NULL, NULL);
    gst_video_frame_unmap (&dst);
  }
  gst_video_frame_unmap (&src);
  gst_buffer_unref (copy);
  return sample;
}

/* The centre @w x @h of @sample (system memory) at full resolution: the
 * thumbnail is scaled down, which hides blur; this crop shows it. */
static GstSample *
crop_sample (GstSample * sample, gint w, gint h)
{
  GstVideoInfo in, out;
  GstVideoFrame src, dst;
  GstBuffer *buf;
  GstCaps *caps;
  GstSample *res = NULL;
  gint x0, y0;

  if (!gst_video_info_from_caps (&in, gst_sample_get_caps (sample)))
    return NULL;
  w = MIN (w, GST_VIDEO_INFO_WIDTH (&in)) & ~7;
  h = MIN (h, GST_VIDEO_INFO_HEIGHT (&in)) & ~7;
  if (w <= 0 || h <= 0)
    return NULL;
  /* Multiples of 8: whole chroma samples for every subsampling. */
  x0 = ((GST_VIDEO_INFO_WIDTH (&in) - w) / 2) & ~7;
  y0 = ((GST_VIDEO_INFO_HEIGHT (&in) - h) / 2) & ~7;
  gst_video_info_set_format (&out, GST_VIDEO_INFO_FORMAT (&in), w, h);
  if (!gst_video_frame_map (&src, &in, gst_sample_get_buffer (sample),
          GST_MAP_READ))
    return NULL;
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&out), NULL);
  if (gst_video_frame_map (&dst, &out, buf, GST_MAP_WRITE)) {
    const GstVideoFormatInfo *finfo = in.finfo;
    gboolean ok = TRUE;

    /* Copy each plane's rows from the crop origin, as the dest frame's
     * width and height say. */
    for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&dst) && ok; p++) {
      gint comp[GST_VIDEO_MAX_COMPONENTS];
      guint8 *sp, *dp = GST_VIDEO_FRAME_PLANE_DATA (&dst, p);
      gint c, rows, bytes;

      gst_video_format_info_component (finfo, p, comp);
      c = comp[0];
      if (c < 0) {
        ok = FALSE;
        break;
      }
      sp = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&src, p) +
          (gsize) GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, c, y0) *
          GST_VIDEO_FRAME_PLANE_STRIDE (&src, p) +
          GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, c, x0) *
          GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
      rows = GST_VIDEO_FRAME_COMP_HEIGHT (&dst, c);
      bytes = GST_VIDEO_FRAME_COMP_WIDTH (&dst, c) *
          GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
      for (gint y = 0; y < rows; y++)
        memcpy (dp + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&dst, p),
            sp + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&src, p), bytes);
    }
    gst_video_frame_unmap (&dst);
    if (ok) {
      caps = gst_video_info_to_caps (&out);
      res = gst_sample_new (buf, caps, NULL, NULL);
      gst_caps_unref (caps);
    }
  }
  gst_video_frame_unmap (&src);
  gst_buffer_unref (buf);
  return res;
}

static gchar *
jpeg_base64 (GstSample * sample, gint w, gint h)
{
  GstCaps *jpeg = gst_caps_new_simple ("image/jpeg", "width", G_TYPE_INT, w,
      "height", G_TYPE_INT, h, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
      NULL);
  GstSample *out = gst_video_convert_sample (sample, jpeg, 10 * GST_SECOND,
      NULL);
  gchar *b64 = NULL;
  GstMapInfo map;

  gst_caps_unref (jpeg);
  if (!out)
    return NULL;
  if (gst_buffer_map (gst_sample_get_buffer (out), &map, GST_MAP_READ)) {
    b64 = g_base64_encode (map.data, map.size);
    gst_buffer_unmap (gst_sample_get_buffer (out), &map);
  }
  gst_sample_unref (out);
  return b64;
}

static void
add_segment (Job * job, const SharpnessSegment * seg)
{
  ScanSegment ss = { *seg, NULL, NULL };

  if (job->open_worst && job->open_worst_frame == seg->worst_frame) {
    ss.worst = job->open_worst;
    job->open_worst = NULL;
  }
  g_array_append_val (job->file.segments, ss);
}

static void
on_caps (Job * job, GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps))
    return;
  job->vinfo = info;
  job->file.width = GST_VIDEO_INFO_WIDTH (&info);
  job->file.height = GST_VIDEO_INFO_HEIGHT (&info);
  job->file.fps_n = GST_VIDEO_INFO_FPS_N (&info);
  job->file.fps_d = GST_VIDEO_INFO_FPS_D (&info);
  g_free (job->file.format);
  job->file.format = g_strdup (GST_VIDEO_INFO_NAME (&info));
  job->file.cuda_memory = features &&
      gst_caps_features_contains (features, "memory:CUDAMemory");
  gst_clear_caps (&job->sample_caps);
  job->sample_caps = gst_caps_copy (caps);
  gst_caps_set_features (job->sample_caps, 0, NULL);
}

static void
on_buffer (Job * job, GstBuffer * buf)
{
  const ScanSettings *s = job->file.settings;
  guint64 index = job->file.frames->len;
  ScanFrame fr = { GST_CLOCK_TIME_NONE, FALSE };
  gdouble scores[SCAN_MAX_METRICS];
  GstClockTime pts = GST_BUFFER_PTS (buf), dur = GST_BUFFER_DURATION (buf);
  SharpnessSegmentFrame sf;
  SharpnessSegment seg;

  for (guint m = 0; m < s->n_metrics; m++) {
    SharpnessMetaReading reading;

    scores[m] = NAN;
    if (!sharpness_meta_read (buf, sharpness_metric_info[s->metrics[m]].nick,
            &reading))
      continue;
    scores[m] = reading.score;
    if (m == 0)
      fr.blurry = reading.blurry;
  }

  if (GST_CLOCK_TIME_IS_VALID (pts) && job->segment.format == GST_FORMAT_TIME)
    fr.pts = gst_segment_to_stream_time (&job->segment, GST_FORMAT_TIME, pts);
  if (!GST_CLOCK_TIME_IS_VALID (dur) && job->file.fps_n > 0)
    dur = gst_util_uint64_scale_int (GST_SECOND, job->file.fps_d,
        job->file.fps_n);
  g_array_append_val (job->file.frames, fr);
  g_array_append_vals (job->file.scores, scores, s->n_metrics);

  if (isfinite (scores[0])) {
    sf = (SharpnessSegmentFrame) {
      .index = index,
      .pts = fr.pts,
      .duration = GST_CLOCK_TIME_IS_VALID (dur) ? dur : SHARPNESS_TIME_NONE,
      .running_time = GST_CLOCK_TIME_IS_VALID (pts) ?
          gst_segment_to_running_time (&job->segment, GST_FORMAT_TIME, pts) :
          SHARPNESS_TIME_NONE,
      .stream_time = fr.pts,
      .score = scores[0],
      .blurry = fr.blurry,
    };
    if (sharpness_segment_tracker_push (&job->tracker, &sf, &seg) ==
        SHARPNESS_SEGMENT_END)
      add_segment (job, &seg);
    if (!job->tracker.open) {
      scan_clear_sample (&job->open_worst);
    } else if (job->tracker.run.worst_frame == index) {
      /* A new worst frame of the open run: keep it for the thumbnail. */
      scan_clear_sample (&job->open_worst);
      job->open_worst = copy_frame (job, buf);
      job->open_worst_frame = index;
    }
  }

  g_mutex_lock (&job->lock);
  job->done_frames = index + 1;
  if (fr.pts != GST_CLOCK_TIME_NONE)
    job->position = fr.pts;
  g_mutex_unlock (&job->lock);
}

static GstPadProbeReturn
probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Job *job = user_data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    on_buffer (job, GST_PAD_PROBE_INFO_BUFFER (info));
  } else if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
    GstCaps *caps;

    if (GST_EVENT_TYPE (ev) == GST_EVENT_SEGMENT)
      gst_event_copy_segment (ev, &job->segment);
    else if (GST_EVENT_TYPE (ev) == GST_EVENT_CAPS) {
      gst_event_parse_caps (ev, &caps);
      on_caps (job, caps);
    }
  }
  return GST_PAD_PROBE_OK;
}

static gboolean
is_video_pad (GstPad * pad)
{
  GstStream *stream = gst_pad_get_stream (pad);
  gboolean video;

  if (stream) {
    video = (gst_stream_get_stream_type (stream) & GST_STREAM_TYPE_VIDEO) != 0;
    gst_object_unref (stream);
    return video;
  }
  return g_str_has_prefix (GST_PAD_NAME (pad), "video");
}

/* Links the decoder's video @pad to the queue: straight when cudasharpness
 * takes what the decoder can output (CUDA memory from a GPU decoder: no
 * download), else through a videoconvert added here. */
static gboolean
link_video (Job * job, GstPad * pad)
{
  GstPad *queue_sink = gst_element_get_static_pad (job->queue, "sink");
  /* The queue answers with what the elements after it accept. */
  GstCaps *accepted = gst_pad_query_caps (queue_sink, NULL);
  /* The stream's caps when already known, else what the decoder can do. */
  GstCaps *offered = gst_pad_get_current_caps (pad);
  gboolean direct, ok;

  if (!offered)
    offered = gst_pad_query_caps (pad, NULL);
  direct = gst_caps_can_intersect (offered, accepted);

  gst_caps_unref (accepted);
  gst_caps_unref (offered);
  if (direct) {
    ok = gst_pad_link (pad, queue_sink) == GST_PAD_LINK_OK;
  } else {
    GstElement *convert = gst_element_factory_make ("videoconvert", NULL);
    GstPad *convert_sink;

    if (!convert) {
      gst_object_unref (queue_sink);
      return FALSE;
    }
    gst_bin_add (GST_BIN (job->pipeline), convert);
    convert_sink = gst_element_get_static_pad (convert, "sink");
    ok = gst_element_link (convert, job->queue) &&
        gst_pad_link (pad, convert_sink) == GST_PAD_LINK_OK;
    gst_object_unref (convert_sink);
    gst_element_sync_state_with_parent (convert);
  }
  GST_DEBUG ("%s: decoder linked %s", job->file.input, direct ? "straight "
      "to the scorers" : "through videoconvert");
  gst_object_unref (queue_sink);
  return ok;
}

static void
pad_added (GstElement * dec, GstPad * pad, gpointer user_data)
{
  Job *job = user_data;
  GstPad *sink;
  GstElement *bin = job->pipeline, *fake;

  if (GST_PAD_DIRECTION (pad) != GST_PAD_SRC)
    return;
  if (!job->linked && is_video_pad (pad)) {
    job->linked = link_video (job, pad);
    if (job->linked)
      return;
  }
  /* Any other stream that shows up is dropped. */
  fake = gst_element_factory_make ("fakesink", NULL);
  g_object_set (fake, "sync", FALSE, "async", FALSE, NULL);
  gst_bin_add (GST_BIN (bin), fake);
  sink = gst_element_get_static_pad (fake, "sink");
  gst_pad_link (pad, sink);
  gst_object_unref (sink);
  gst_element_sync_state_with_parent (fake);
}

/* Decode the first video stream only: no time spent on audio.  Streams
 * are compared by id: the signal may pass a stream object of another
 * collection than the one it passes (decodebin3 merges them), and
 * selecting nothing would stall the pipeline. */
static gint
select_stream (GstElement * dec, GstStreamCollection * collection,
    GstStream * stream, gpointer user_data)
{
  if (!(gst_stream_get_stream_type (stream) & GST_STREAM_TYPE_VIDEO))
    return 0;
  for (guint i = 0; i < gst_stream_collection_get_size (collection); i++) {
    GstStream *s = gst_stream_collection_get_stream (collection, i);
    if (gst_stream_get_stream_type (s) & GST_STREAM_TYPE_VIDEO)
      return g_strcmp0 (gst_stream_get_stream_id (s),
          gst_stream_get_stream_id (stream)) == 0 ? 1 : 0;
  }
  return 1;
}

static void
element_added (GstBin * bin, GstBin * sub, GstElement * element,
    gpointer user_data)
{
  Job *job = user_data;
  GstElementFactory *f = gst_element_get_factory (element);
  const gchar *klass;

  if (!f)
    return;
  klass = gst_element_factory_get_metadata (f, GST_ELEMENT_METADATA_KLASS);
  if (klass && strstr (klass, "Decoder") && strstr (klass, "Video")) {
    g_mutex_lock (&job->lock);
    if (!job->file.decoder)
      job->file.decoder = g_strdup (GST_OBJECT_NAME (f));
    g_mutex_unlock (&job->lock);
  }
}

/* The stream collection tells whether there is video at all: an audio-only
 * file is an error, said as such. */
static GstBusSyncReply
sync_handler (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  Job *job = user_data;
  GstStreamCollection *c = NULL;
  gboolean video = FALSE;
  gchar *codec = NULL;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_STREAM_COLLECTION)
    return GST_BUS_PASS;
  gst_message_parse_stream_collection (msg, &c);
  for (guint i = 0; c && i < gst_stream_collection_get_size (c); i++) {
    GstStream *s = gst_stream_collection_get_stream (c, i);
    if (gst_stream_get_stream_type (s) & GST_STREAM_TYPE_VIDEO) {
      GstCaps *caps = gst_stream_get_caps (s);
      video = TRUE;
      if (caps) {
        codec = gst_pb_utils_get_codec_description (caps);
        if (!codec && gst_caps_get_size (caps))
          codec = g_strdup (gst_structure_get_name (gst_caps_get_structure
                  (caps, 0)));
        gst_caps_unref (caps);
      }
      break;
    }
  }
  if (c)
    gst_object_unref (c);
  g_mutex_lock (&job->lock);
  job->no_video = !video;
  if (codec) {
    g_free (job->file.codec);
    job->file.codec = codec;
  }
  g_mutex_unlock (&job->lock);
  return GST_BUS_PASS;
}

/* ------------------------------------------------------------------ */
/* Main thread */

static void start_jobs (Scan * scan);
static void emit_ready (Scan * scan);

static gchar *
to_uri (const gchar * input)
{
  if (gst_uri_is_valid (input))
    return g_strdup (input);
  return gst_filename_to_uri (input, NULL);
}

static gboolean
check_input (Job * job)
{
  gchar *path;

  if (!job->file.uri) {
    job->file.error = g_strdup ("not a file name or URI");
    return FALSE;
  }
  if (!g_str_has_prefix (job->file.uri, "file:"))
    return TRUE;
  path = g_filename_from_uri (job->file.uri, NULL, NULL);
  if (path && !g_file_test (path, G_FILE_TEST_EXISTS))
    job->file.error = g_strdup ("no such file");
  else if (path && g_file_test (path, G_FILE_TEST_IS_DIR))
    job->file.error = g_strdup ("is a directory");
  else if (path && access (path, R_OK) != 0)
    job->file.error = g_strdup ("cannot be read (permission denied)");
  g_free (path);
  return job->file.error == NULL;
}

static void
finish_job (Scan * scan, Job * job, gchar * error)
{
  SharpnessSegment seg;
  guint64 n;

  if (job->finished) {
    g_free (error);
    return;
  }
  job->finished = TRUE;
  job->file.elapsed = (g_get_monotonic_time () - job->t_start) / 1e6;
  if (job->pipeline) {
    gint64 dur = -1;
    if (gst_element_query_duration (job->pipeline, GST_FORMAT_TIME, &dur) &&
        dur > 0)
      job->file.duration = dur;
    gst_element_set_state (job->pipeline, GST_STATE_NULL);
  }
  if (job->bus_watch)
    g_source_remove (job->bus_watch);
  job->bus_watch = 0;
  g_clear_pointer (&job->pipeline, gst_object_unref);

  n = scan_file_frames (&job->file);
  if (!error && job->no_video)
    error = g_strdup ("no video stream (audio only?)");
  if (!error && n == 0)
    error = g_strdup (job->file.warning ? job->file.warning :
        "no video frame could be decoded");
  if (!error && job->file.duration != GST_CLOCK_TIME_NONE) {
    /* The container promised more than was decoded: truncated or damaged
     * (demuxers end such files with a plain EOS). */
    gdouble have = scan_file_seconds (&job->file);
    gdouble want = job->file.duration / (gdouble) GST_SECOND;
    if (have + 0.5 < want * 0.98)
      error = g_strdup_printf ("truncated or damaged: frames end at %.2f s, "
          "the container says %.2f s", have, want);
  }
  job->file.error = error;
  if (!error &&
      sharpness_segment_tracker_finish (&job->tracker, &seg) ==
      SHARPNESS_SEGMENT_END)
    add_segment (job, &seg);
  scan_clear_sample (&job->open_worst);

  /* Thumbnails of the worst frames (a short pipeline each). */
  for (guint i = 0; i < job->file.segments->len; i++) {
    ScanSegment *ss = &g_array_index (job->file.segments, ScanSegment, i);
    GstSample *crop;
    gint h;

    if (!ss->worst)
      continue;
    h = job->file.width > 0 ? (gint) (THUMB_WIDTH * (gint64)
        job->file.height / job->file.width) & ~1 : 180;
    ss->jpeg_base64 = jpeg_base64 (ss->worst, THUMB_WIDTH, MAX (h, 2));
    crop = crop_sample (ss->worst, THUMB_WIDTH, MAX (h, 8));
    if (crop) {
      GstVideoInfo ci;
      gst_video_info_from_caps (&ci, gst_sample_get_caps (crop));
      ss->crop_base64 = jpeg_base64 (crop, GST_VIDEO_INFO_WIDTH (&ci),
          GST_VIDEO_INFO_HEIGHT (&ci));
      gst_sample_unref (crop);
    }
    scan_clear_sample (&ss->worst);
  }

  job->running = FALSE;
  scan->running--;
  emit_ready (scan);
  /* From start_jobs () (an input that failed at once), its loop goes on;
   * no recursion over a long list of missing files. */
  if (!scan->starting)
    start_jobs (scan);
}

static gboolean
bus_cb (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  Job *job = user_data;
  Scan *scan = g_object_get_data (G_OBJECT (job->pipeline), "scan");
  GError *err = NULL;
  gchar *dbg = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_EOS:
      finish_job (scan, job, NULL);
      return G_SOURCE_REMOVE;
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &dbg);
      if (job->no_video)
        finish_job (scan, job, g_strdup ("no video stream (audio only?)"));
      else
        finish_job (scan, job, g_strdup_printf ("%s (%s)", err->message,
                GST_OBJECT_NAME (GST_MESSAGE_SRC (msg))));
      g_clear_error (&err);
      g_free (dbg);
      return G_SOURCE_REMOVE;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, &dbg);
      if (!job->file.warning)
        job->file.warning = g_strdup_printf ("%s (%s)", err->message,
            GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)));
      g_clear_error (&err);
      g_free (dbg);
      break;
    case GST_MESSAGE_STREAM_COLLECTION:
      if (job->no_video) {
        finish_job (scan, job, g_strdup ("no video stream (audio only?)"));
        return G_SOURCE_REMOVE;
      }
      break;
    case GST_MESSAGE_ELEMENT:
      if (gst_is_missing_plugin_message (msg)) {
        gchar *d = gst_missing_plugin_message_get_description (msg);
        finish_job (scan, job, g_strdup_printf ("no decoder: %s missing", d));
        g_free (d);
        return G_SOURCE_REMOVE;
      }
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

static GstElement *
make (const gchar * factory, GError ** error)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  if (!e)
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "element %s missing%s", factory,
        g_str_equal (factory, "cudasharpness") ? " (is the gst-sharpness "
        "plugin installed, or GST_PLUGIN_PATH set?)" : "");
  return e;
}

static gboolean
build_pipeline (Scan * scan, Job * job, GError ** error)
{
  const ScanSettings *s = &scan->settings;
  GstElement *src, *queue, *sink, *prev, *last = NULL;
  GstPad *pad;
  GstBus *bus;
  gchar *path;

  job->pipeline = gst_pipeline_new (NULL);
  /* The bin hands it to the decoder and the scorers as they are added. */
  if (scan->cuda_context)
    gst_element_set_context (job->pipeline, scan->cuda_context);
  path = g_str_has_prefix (job->file.uri, "file:") ?
      g_filename_from_uri (job->file.uri, NULL, NULL) : NULL;
  /* Local files: filesrc ! decodebin3, what uridecodebin3 builds minus
   * urisourcebin, whose dynamically added queue sometimes never starts
   * when pipelines follow one another in a process (GStreamer 1.22: the
   * second of four files stalled about one run in ten).  Other URIs:
   * uridecodebin3. */
  if (path) {
    GstElement *file = make ("filesrc", error);
    if (!file || !(src = make ("decodebin3", error)))
      return FALSE;
    g_object_set (file, "location", path, NULL);
    gst_bin_add (GST_BIN (job->pipeline), file);
    gst_bin_add (GST_BIN (job->pipeline), src);
    if (!gst_element_link (file, src))
      return FALSE;
    g_free (path);
  } else {
    if (!(src = make ("uridecodebin3", error)))
      return FALSE;
    g_object_set (src, "uri", job->file.uri, NULL);
    gst_bin_add (GST_BIN (job->pipeline), src);
  }
  if (!(queue = make ("queue", error)) || !(sink = make ("fakesink", error)))
    return FALSE;
  job->queue = queue;
  /* The queue lets decoding and scoring run on two threads; short, since
   * GPU decoders have few output surfaces. */
  g_object_set (queue, "max-size-buffers", 4, "max-size-bytes", 0,
      "max-size-time", (guint64) 0, NULL);
  g_object_set (sink, "sync", FALSE, "enable-last-sample", FALSE, NULL);
  gst_bin_add (GST_BIN (job->pipeline), queue);
  prev = queue;
  for (guint m = 0; m < s->n_metrics; m++) {
    GstElement *e = make ("cudasharpness", error);
    if (!e)
      return FALSE;
    g_object_set (e, "post-messages", FALSE, "window", s->window, NULL);
    gst_util_set_object_arg (G_OBJECT (e), "metric",
        sharpness_metric_info[s->metrics[m]].nick);
    if (s->cpu)
      gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
    if (m == 0)
      g_object_set (e, "threshold", s->threshold, "relative-threshold",
          s->relative_threshold, NULL);
    gst_bin_add (GST_BIN (job->pipeline), e);
    if (!gst_element_link (prev, e))
      return FALSE;
    prev = last = e;
  }
  gst_bin_add (GST_BIN (job->pipeline), sink);
  if (!gst_element_link (prev, sink))
    return FALSE;

  pad = gst_element_get_static_pad (last, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, probe, job, NULL);
  gst_object_unref (pad);
  g_signal_connect (src, "pad-added", G_CALLBACK (pad_added), job);
  g_signal_connect (src, "select-stream", G_CALLBACK (select_stream), job);
  g_signal_connect (job->pipeline, "deep-element-added",
      G_CALLBACK (element_added), job);
  g_object_set_data (G_OBJECT (job->pipeline), "scan", scan);

  bus = gst_element_get_bus (job->pipeline);
  gst_bus_set_sync_handler (bus, sync_handler, job, NULL);
  job->bus_watch = gst_bus_add_watch (bus, bus_cb, job);
  gst_object_unref (bus);
  return TRUE;
}

static void
start_jobs (Scan * scan)
{
  scan->starting = TRUE;
  while (scan->running < scan->settings.jobs &&
      scan->next_start < scan->n_jobs) {
    Job *job = scan->jobs[scan->next_start++];
    GError *err = NULL;

    job->running = TRUE;
    scan->running++;
    job->t_start = g_get_monotonic_time ();
    if (!check_input (job)) {
      finish_job (scan, job, job->file.error);
      continue;
    }
    if (!build_pipeline (scan, job, &err)) {
      finish_job (scan, job, g_strdup (err ? err->message :
              "could not build the pipeline"));
      g_clear_error (&err);
      continue;
    }
    if (gst_element_set_state (job->pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE && !job->finished) {
      /* The bus says why; let its watch report it. */
      GST_DEBUG ("state change failed for %s", job->file.input);
    }
  }
  scan->starting = FALSE;
  if (scan->running == 0 && scan->next_start >= scan->n_jobs)
    g_main_loop_quit (scan->loop);
}

static void
write_out (FILE * f, GString * s)
{
  if (f && s->len)
    fwrite (s->str, 1, s->len, f);
  g_string_truncate (s, 0);
}

static void
clear_progress (Scan * scan)
{
  if (scan->progress)
    g_printerr ("\r\033[K");
}

/* Writes the finished files, in input order, and frees their frames. */
static void
emit_ready (Scan * scan)
{
  GString *s = g_string_new (NULL);

  while (scan->next_emit < scan->n_jobs &&
      scan->jobs[scan->next_emit]->finished) {
    Job *job = scan->jobs[scan->next_emit];
    ScanFile *f = &job->file;

    clear_progress (scan);
    if (f->error) {
      scan->any_error = TRUE;
      g_printerr ("sharpness-scan: %s: error: %s\n", f->input, f->error);
    } else if (!opt_quiet) {
      gchar *line = scan_summary_line (f);
      if (scan->summaries_to_stderr)
        g_printerr ("%s\n", line);
      else
        g_print ("%s\n", line);
      g_free (line);
    }
    if (f->segments->len)
      scan->any_blurry = TRUE;
    if (scan->csv) {
      scan_csv_file (s, f);
      write_out (scan->csv, s);
    }
    if (scan->json) {
      scan_json_file (s, f, scan->next_emit == 0);
      write_out (scan->json, s);
    }
    if (scan->html) {
      scan_report_file (s, f);
      write_out (scan->html, s);
    }
    g_array_set_size (f->frames, 0);
    g_array_set_size (f->scores, 0);
    for (guint i = 0; i < f->segments->len; i++)
    {
      g_free (g_array_index (f->segments, ScanSegment, i).jpeg_base64);
      g_free (g_array_index (f->segments, ScanSegment, i).crop_base64);
    }
    g_array_set_size (f->segments, 0);
    scan->next_emit++;
  }
  g_string_free (s, TRUE);
  fflush (stdout);
}

/* A file whose pipeline makes no progress for STALL_SECONDS fails, so
 * that one bad input cannot hang a batch. */
#define STALL_SECONDS 60

static gboolean
watchdog_cb (gpointer user_data)
{
  Scan *scan = user_data;
  gint64 now = g_get_monotonic_time ();

  for (guint i = scan->next_emit; i < scan->n_jobs; i++) {
    Job *job = scan->jobs[i];
    guint64 frames;

    if (!job->running || job->finished || !job->pipeline)
      continue;
    g_mutex_lock (&job->lock);
    frames = job->done_frames;
    g_mutex_unlock (&job->lock);
    if (job->watch_time == 0 || frames != job->watch_frames) {
      job->watch_frames = frames;
      job->watch_time = now;
    } else if (now - job->watch_time > STALL_SECONDS * G_USEC_PER_SEC) {
      finish_job (scan, job, g_strdup_printf ("stalled: no frame for %d s "
              "after frame %" G_GUINT64_FORMAT, STALL_SECONDS, frames));
      /* finish_job may have started jobs: look again next time. */
      break;
    }
  }
  return G_SOURCE_CONTINUE;
}

static gboolean
progress_cb (gpointer user_data)
{
  Scan *scan = user_data;
  gdouble done = scan->next_emit, elapsed;
  guint64 frames = 0;
  gchar *eta;

  for (guint i = scan->next_emit; i < scan->n_jobs; i++) {
    Job *job = scan->jobs[i];
    gint64 dur = -1;

    if (job->finished) {
      done += 1;
      continue;
    }
    if (!job->running || !job->pipeline)
      continue;
    g_mutex_lock (&job->lock);
    frames += job->done_frames;
    if (job->file.duration == GST_CLOCK_TIME_NONE &&
        gst_element_query_duration (job->pipeline, GST_FORMAT_TIME, &dur) &&
        dur > 0)
      job->file.duration = dur;
    if (job->file.duration != GST_CLOCK_TIME_NONE && job->file.duration > 0)
      done += MIN (1.0, job->position / (gdouble) job->file.duration);
    g_mutex_unlock (&job->lock);
  }
  elapsed = (g_get_monotonic_time () - scan->t_start) / 1e6;
  eta = done > 0 ? scan_format_time (elapsed * (scan->n_jobs - done) / done) :
      g_strdup ("?");
  g_printerr ("\r\033[K%u/%u files, %.0f%%, %.0f fps, ETA %s",
      scan->next_emit, scan->n_jobs, 100.0 * done / MAX (scan->n_jobs, 1),
      elapsed > 0 ? frames / MAX (elapsed, 1e-3) : 0.0, eta);
  g_free (eta);
  return G_SOURCE_CONTINUE;
}

/* ------------------------------------------------------------------ */
/* Setup */

static gboolean
is_nv_decoder (GstPluginFeature * feature)
{
  const gchar *name = GST_OBJECT_NAME (feature);
  const gchar *klass;

  if (!GST_IS_ELEMENT_FACTORY (feature) || !g_str_has_prefix (name, "nv") ||
      !g_str_has_suffix (name, "dec"))
    return FALSE;
  klass = gst_element_factory_get_metadata (GST_ELEMENT_FACTORY (feature),
      GST_ELEMENT_METADATA_KLASS);
  return klass && strstr (klass, "Decoder") != NULL;
}

/* Sets the rank of the NVIDIA decoders: above the software decoders (GPU
 * decoding, frames in CUDA memory) or out of autoplugging (--cpu).
 * Returns TRUE when there is at least one. */
static gboolean
rank_gpu_decoders (guint rank)
{
  GList *features = gst_registry_get_feature_list (gst_registry_get (),
      GST_TYPE_ELEMENT_FACTORY);
  gboolean any = FALSE;

  for (GList * l = features; l; l = l->next)
    if (is_nv_decoder (l->data)) {
      gst_plugin_feature_set_rank (l->data, rank);
      any = TRUE;
    }
  gst_plugin_feature_list_free (features);
  return any;
}

/* Whether cudasharpness can score on a GPU: its backend=cuda refuses to
 * start without a usable device.  The CUDA context it made goes to
 * @context, for the pipelines to share. */
static gboolean
cuda_backend_usable (GstContext ** context)
{
  GstElement *e = gst_element_factory_make ("cudasharpness", NULL);
  GstQuery *query;
  GstPad *pad;
  gboolean ok;

  if (!e)
    return FALSE;
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cuda");
  ok = gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE;
  if (ok) {
    /* Its own pad answers for it (an element query would go to a peer). */
    query = gst_query_new_context ("gst.cuda.context");
    pad = gst_element_get_static_pad (e, "sink");
    if (gst_pad_query (pad, query)) {
      gst_query_parse_context (query, context);
      if (*context)
        gst_context_ref (*context);
    }
    gst_object_unref (pad);
    gst_query_unref (query);
  }
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
  return ok;
}

static gboolean
read_list (const gchar * path, GPtrArray * inputs, GError ** error)
{
  gchar *text = NULL;
  gchar **lines;

  if (g_strcmp0 (path, "-") == 0) {
    GString *s = g_string_new (NULL);
    gchar buf[4096];
    gsize n;
    while ((n = fread (buf, 1, sizeof buf, stdin)) > 0)
      g_string_append_len (s, buf, n);
    text = g_string_free (s, FALSE);
  } else if (!g_file_get_contents (path, &text, NULL, error)) {
    return FALSE;
  }
  lines = g_strsplit (text, "\n", -1);
  for (gchar ** l = lines; *l; l++) {
    gchar *line = g_strstrip (*l);
    if (*line && *line != '#')
      g_ptr_array_add (inputs, g_strdup (line));
  }
  g_strfreev (lines);
  g_free (text);
  return TRUE;
}

static FILE *
open_output (const gchar * path, Scan * scan)
{
  FILE *f;

  if (!path)
    return NULL;
  if (g_strcmp0 (path, "-") == 0) {
    scan->summaries_to_stderr = TRUE;
    return stdout;
  }
  f = fopen (path, "w");
  if (!f)
    g_printerr ("sharpness-scan: %s: %s\n", path, g_strerror (errno));
  return f;
}

static gboolean
close_output (FILE * f, const gchar * path)
{
  gboolean ok;

  if (!f)
    return TRUE;
  ok = !ferror (f);
  if (f == stdout)
    ok = fflush (f) == 0 && ok;
  else
    ok = fclose (f) == 0 && ok;
  if (!ok)
    g_printerr ("sharpness-scan: %s: write failed\n", path);
  return ok;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx;
  GError *err = NULL;
  Scan scan = { 0, };
  ScanSettings *s = &scan.settings;
  GPtrArray *inputs;
  guint shard_i = 0, shard_n = 1;
  GString *buf;
  gboolean write_ok = TRUE;
  int status;

  ctx = g_option_context_new ("- find the blurry segments of video files");
  g_option_context_set_summary (ctx, "Scores the sharpness of every frame "
      "of each input with the cudasharpness element and reports its blurry "
      "segments: one summary line per file, and optionally a CSV of the "
      "frames, a JSON of the segments and an HTML report.");
  g_option_context_set_description (ctx, description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("sharpness-scan: %s\nTry 'sharpness-scan --help'.\n",
        err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (opt_version) {
    g_print ("sharpness-scan " VERSION "\n");
    return 0;
  }

  if (!parse_metrics (s, opt_metrics ? opt_metrics :
          sharpness_metric_from_nick (DEFAULT_METRICS) >= 0 ?
          DEFAULT_METRICS : FALLBACK_METRICS, &err)) {
    g_printerr ("sharpness-scan: %s\n", err->message);
    return 2;
  }
  /* Either option given is the whole rule; else the metric's default. */
  if (opt_threshold < 0 && opt_relative < 0) {
    gboolean blur_effect = g_str_equal (sharpness_metric_info[s->metrics[0]].
        nick, "blur-effect");
    s->threshold = blur_effect ? DEFAULT_BLUR_EFFECT_THRESHOLD : 0.0;
    s->relative_threshold = blur_effect ? 0.0 : DEFAULT_RELATIVE;
  } else {
    s->threshold = MAX (opt_threshold, 0.0);
    s->relative_threshold = MAX (opt_relative, 0.0);
  }
  if (s->relative_threshold > 1.0 || opt_window < 1 || opt_window > 10000 ||
      opt_max_gap < 0 || opt_min_duration < 0 || opt_jobs < 0) {
    g_printerr ("sharpness-scan: bad value: --relative-threshold must be in "
        "[0, 1], --window in [1, 10000], --max-gap, --min-duration and "
        "--jobs not negative\n");
    return 2;
  }
  s->window = opt_window;
  s->min_duration = opt_min_duration;
  s->max_gap = opt_max_gap;
  s->cpu = opt_cpu;
  s->quiet = opt_quiet;
  if (opt_shard && !parse_shard (opt_shard, &shard_i, &shard_n)) {
    g_printerr ("sharpness-scan: --shard wants I/N with 0 <= I < N, "
        "not '%s'\n", opt_shard);
    return 2;
  }

  inputs = g_ptr_array_new_with_free_func (g_free);
  for (gchar ** in = opt_inputs; in && *in; in++)
    g_ptr_array_add (inputs, g_strdup (*in));
  if (opt_list && !read_list (opt_list, inputs, &err)) {
    g_printerr ("sharpness-scan: %s\n", err->message);
    return 2;
  }
  if (inputs->len == 0) {
    g_printerr ("sharpness-scan: no input\nTry 'sharpness-scan --help'.\n");
    return 2;
  }
  if (!gst_element_factory_find ("cudasharpness")) {
    g_printerr ("sharpness-scan: the cudasharpness element is missing (is "
        "the gst-sharpness plugin installed, or GST_PLUGIN_PATH set?)\n");
    return 2;
  }

  if (s->cpu)
    rank_gpu_decoders (GST_RANK_NONE);
  else if (rank_gpu_decoders (GST_RANK_NONE) &&
      cuda_backend_usable (&scan.cuda_context))
    s->gpu_decode = rank_gpu_decoders (GST_RANK_PRIMARY + 1);
  /* Measured (docs/scan.md, Speed): one software decoder does not keep 2
   * cores busy, two pipelines do; on an H200, 8 GPU-decoded 1080p files
   * at a time give 1.4x the throughput of 4 (its 7 NVDEC engines). */
  s->jobs = opt_jobs > 0 ? (guint) opt_jobs : s->gpu_decode ? 8 :
      MAX (2, g_get_num_processors () / 4);

  for (guint i = 0; i < inputs->len; i++) {
    Job *job;
    if (i % shard_n != shard_i)
      continue;
    job = g_new0 (Job, 1);
    job->file.index = scan.n_jobs;
    job->file.input = g_strdup (inputs->pdata[i]);
    job->file.uri = to_uri (job->file.input);
    job->file.settings = s;
    job->file.duration = GST_CLOCK_TIME_NONE;
    job->file.frames = g_array_new (FALSE, FALSE, sizeof (ScanFrame));
    job->file.scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
    job->file.segments = g_array_new (FALSE, FALSE, sizeof (ScanSegment));
    g_mutex_init (&job->lock);
    gst_segment_init (&job->segment, GST_FORMAT_UNDEFINED);
    gst_video_info_init (&job->vinfo);
    sharpness_segment_tracker_init (&job->tracker,
        (guint64) (s->min_duration * GST_SECOND + 0.5), s->max_gap,
        sharpness_metric_info[s->metrics[0]].direction ==
        SHARPNESS_LOWER_IS_SHARPER);
    scan.jobs = g_renew (Job *, scan.jobs, scan.n_jobs + 1);
    scan.jobs[scan.n_jobs++] = job;
  }

  scan.csv = open_output (opt_csv, &scan);
  scan.json = open_output (opt_json, &scan);
  scan.html = open_output (opt_report, &scan);
  if ((opt_csv && !scan.csv) || (opt_json && !scan.json) ||
      (opt_report && !scan.html))
    return 2;
  buf = g_string_new (NULL);
  if (scan.csv) {
    scan_csv_header (buf, s);
    write_out (scan.csv, buf);
  }
  if (scan.json) {
    scan_json_begin (buf);
    write_out (scan.json, buf);
  }
  if (scan.html) {
    scan_report_begin (buf, s);
    write_out (scan.html, buf);
  }

  scan.loop = g_main_loop_new (NULL, FALSE);
  scan.t_start = g_get_monotonic_time ();
  scan.progress = !opt_quiet && isatty (STDERR_FILENO);
  if (scan.progress)
    g_timeout_add (500, progress_cb, &scan);
  g_timeout_add_seconds (5, watchdog_cb, &scan);
  if (scan.n_jobs > 0) {
    start_jobs (&scan);
    if (scan.running > 0 || scan.next_start < scan.n_jobs)
      g_main_loop_run (scan.loop);
  }
  clear_progress (&scan);

  if (scan.json) {
    scan_json_end (buf);
    write_out (scan.json, buf);
  }
  if (scan.html) {
    scan_report_end (buf);
    write_out (scan.html, buf);
  }
  g_string_free (buf, TRUE);
  write_ok = close_output (scan.csv, opt_csv) &&
      close_output (scan.json, opt_json) &&
      close_output (scan.html, opt_report);

  status = (scan.any_error || !write_ok) ? 2 :
      (opt_fail && scan.any_blurry) ? 1 : 0;
  for (guint i = 0; i < scan.n_jobs; i++) {
    Job *job = scan.jobs[i];
    g_free (job->file.input);
    g_free (job->file.uri);
    g_free (job->file.codec);
    g_free (job->file.decoder);
    g_free (job->file.format);
    g_free (job->file.error);
    g_free (job->file.warning);
    g_array_unref (job->file.frames);
    g_array_unref (job->file.scores);
    g_array_unref (job->file.segments);
    gst_clear_caps (&job->sample_caps);
    g_mutex_clear (&job->lock);
    g_free (job);
  }
  g_free (scan.jobs);
  g_ptr_array_unref (inputs);
  g_main_loop_unref (scan.loop);
  g_clear_pointer (&scan.cuda_context, gst_context_unref);
  return status;
}
