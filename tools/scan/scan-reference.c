/* sharpness-scan --reference: the comparisons, one distorted file after
 * the other:
 *   filesrc location=SRC  ! decodebin ! [videoconvert !] queue ! c.ref_sink
 *   filesrc location=DIST ! decodebin ! [videoconvert !] queue ! c.dist_sink
 *   cudacompare name=c metrics=vmaf[+psnr+ssim...] ! fakesink
 * The scan's decoding (tools/common: the first video stream, the others
 * drained; NVDEC when a CUDA GPU is usable, its CUDA memory read in place
 * by cudacompare), then a second, decode-only pass over both files for
 * the frames the report shows: the lowest VMAF is known only at the end,
 * and keeping every frame until then would hold the whole file.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "scan-reference.h"
#include "sharpness-tool-decode.h"
#include "sharpness-tool-gpu.h"

/* The application message that ends the thumbnails' pass once both
 * sides are past the last frame it needs (play () ends on it as on EOS). */
#define THUMBS_DONE "sharpness-scan-reference-thumbnails-done"

/* The signal that stops the comparisons (0: none), set by the handler. */
static volatile sig_atomic_t stop_signal;

/* The first signal: the comparisons stop; a second exits at once (as the
 * scan's). */
static void
on_signal (int sig)
{
  stop_signal = sig;
  scan_outfile_exit_on_signals ();
}

/* The distorted frames take the reference's pixel format, as FFmpeg's
 * libvmaf filter converts both inputs to one format (an encode is often
 * 4:2:0 or 10-bit where its source is not; cudacompare compares one
 * format): they wait, blocked on their decoder's pad, until the
 * reference's first caps tell it. */
typedef struct
{
  GMutex lock;
  gchar *format;                /* the reference's, NULL: not known yet */
  GstElement *filter;           /* the distorted side's capsfilter */
  GstPad *blocked;              /* the distorted decoder's pad, blocked */
  gulong block_id;
} FormatMatch;

/* Sets the filter's format and lets the distorted frames go, once both
 * are there; @m->lock held. */
static void
format_match_apply (FormatMatch * m)
{
  GstCaps *caps;

  if (!m->format || !m->filter)
    return;
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      m->format, NULL);
  g_object_set (m->filter, "caps", caps, NULL);
  gst_caps_unref (caps);
  if (m->blocked) {
    gst_pad_remove_probe (m->blocked, m->block_id);
    gst_clear_object (&m->blocked);
  }
}

static GstPadProbeReturn
block_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  return GST_PAD_PROBE_OK;
}

/* One side's decoding: filesrc ! decodebin, linked to @sink (a queue's
 * sink pad, or a converter's) when its video appears. */
typedef struct
{
  GstElement *pipeline;
  GstElement *queue;            /* the branch's queue */
  gboolean gpu, convert_always, linked;
  SharpnessToolDecode *decode;
  const gchar *path;
  GstElement *src, *dec;
  gint width, height;           /* of the frames compared, 0: none yet */
  gchar *decoded_format;        /* what the decoder gave */
  /* The reference's format, that the distorted side takes; NULL: none
   * (the thumbnails' pass). */
  FormatMatch *match;
  gboolean reference;
} Side;

/* The caps of the decoded frames (on a sink pad: where the decoder links;
 * for the note that says they were converted) and of the frames compared
 * (on the queue's source pad: their size, for the error when the two
 * sides differ, and the reference's format, that the distorted side
 * takes). */
static GstPadProbeReturn
caps_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Side *side = data;
  GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
  GstCaps *caps;
  GstVideoInfo vi;

  if (GST_EVENT_TYPE (ev) != GST_EVENT_CAPS)
    return GST_PAD_PROBE_OK;
  gst_event_parse_caps (ev, &caps);
  if (!gst_video_info_from_caps (&vi, caps))
    return GST_PAD_PROBE_OK;
  if (GST_PAD_IS_SINK (pad)) {
    g_free (side->decoded_format);
    side->decoded_format = g_strdup (GST_VIDEO_INFO_NAME (&vi));
    return GST_PAD_PROBE_OK;
  }
  side->width = GST_VIDEO_INFO_WIDTH (&vi);
  side->height = GST_VIDEO_INFO_HEIGHT (&vi);
  if (side->match && side->reference) {
    g_mutex_lock (&side->match->lock);
    if (!side->match->format) {
      side->match->format = g_strdup (GST_VIDEO_INFO_NAME (&vi));
      format_match_apply (side->match);
    }
    g_mutex_unlock (&side->match->lock);
  }
  return GST_PAD_PROBE_OK;
}

/* Decoded video to the branch: straight when it is NVDEC's CUDA memory
 * and the comparison takes it, else through videoconvert (the decoder's
 * real caps are known only then: make_converter () in scan-pipeline.c
 * says why), and on the distorted side a capsfilter that takes the
 * reference's format. */
static void
pad_added (GstElement * dec, GstPad * pad, gpointer user_data)
{
  Side *side = user_data;

  if (!side->linked && sharpness_tool_decode_output (pad) ==
      SHARPNESS_TOOL_OUTPUT_VIDEO) {
    GstPad *in = gst_element_get_static_pad (side->queue, "sink");

    if (side->convert_always || !side->gpu ||
        !sharpness_tool_pad_offers_cuda (pad)) {
      GstElement *convert = gst_element_factory_make ("videoconvert", NULL);
      GstElement *last = convert;

      gst_bin_add (GST_BIN (side->pipeline), convert);
      if (side->match && !side->reference) {
        last = gst_element_factory_make ("capsfilter", NULL);
        gst_bin_add (GST_BIN (side->pipeline), last);
        gst_element_link (convert, last);
        gst_element_sync_state_with_parent (last);
        g_mutex_lock (&side->match->lock);
        side->match->filter = last;
        if (!side->match->format) {
          side->match->blocked = gst_object_ref (pad);
          side->match->block_id = gst_pad_add_probe (pad,
              GST_PAD_PROBE_TYPE_BLOCK | GST_PAD_PROBE_TYPE_DATA_DOWNSTREAM,
              block_probe, NULL, NULL);
        }
        format_match_apply (side->match);
        g_mutex_unlock (&side->match->lock);
      }
      gst_element_link (last, side->queue);
      gst_element_sync_state_with_parent (convert);
      gst_object_unref (in);
      in = gst_element_get_static_pad (convert, "sink");
    }
    gst_pad_add_probe (in, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
        caps_probe, side, NULL);
    side->linked = sharpness_tool_decode_link (pad, in);
    gst_object_unref (in);
    if (side->linked)
      return;
  }
  sharpness_tool_decode_drain (pad);
}

/* filesrc ! decodebin ... queue; the queue is returned (owned by the
 * pipeline). */
static GstElement *
add_side (GstElement * pipeline, Side * side, const gchar * path)
{
  GstElement *src = gst_element_factory_make ("filesrc", NULL);
  GstElement *dec = gst_element_factory_make ("decodebin", NULL);
  GstPad *pad;

  side->pipeline = pipeline;
  side->path = path;
  side->src = src;
  side->dec = dec;
  side->queue = gst_element_factory_make ("queue", NULL);
  g_object_set (src, "location", path, NULL);
  gst_bin_add_many (GST_BIN (pipeline), src, dec, side->queue, NULL);
  gst_element_link (src, dec);
  side->decode = sharpness_tool_decode_attach (dec, FALSE);
  g_signal_connect (dec, "pad-added", G_CALLBACK (pad_added), side);
  pad = gst_element_get_static_pad (side->queue, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, caps_probe,
      side, NULL);
  gst_object_unref (pad);
  return side->queue;
}

/* The frame's row of values, made when first seen (NaN: none yet). */
static gdouble *
row (ScanRefResult * r, guint64 frame, guint64 pts)
{
  while (r->frames->len <= frame) {
    ScanRefFrame f = { r->frames->len, GST_CLOCK_TIME_NONE };
    gdouble nan = NAN;

    g_array_append_val (r->frames, f);
    for (guint c = 0; c < r->n_columns; c++)
      g_array_append_val (r->values, nan);
  }
  if (GST_CLOCK_TIME_IS_VALID (pts))
    g_array_index (r->frames, ScanRefFrame, frame).pts = pts;
  return &g_array_index (r->values, gdouble, frame * r->n_columns);
}

/* A `compare` or `compare-vmaf` message into the frame's row, through
 * their typed reader. */
static gboolean
take_values (ScanRefResult * r, GstMessage * msg)
{
  CompareMessage m;
  gdouble *v;

  if (!compare_message_read (msg, TRUE, &m) &&
      !compare_message_read (msg, FALSE, &m))
    return FALSE;
  v = row (r, m.frame, GST_CLOCK_TIME_IS_VALID (m.times.stream_time) ?
      m.times.stream_time : m.times.timestamp);
  for (guint c = 0; c < r->n_columns; c++) {
    gdouble x = compare_message_value (&m, r->columns[c]);

    if (!isnan (x))
      v[c] = x;
  }
  return TRUE;
}

/* `compare-summary`: how many frames each side decoded. */
static void
take_summary (ScanRefResult * r, GstMessage * msg)
{
  const GstStructure *s = gst_message_get_structure (msg);
  const GValue *v;

  if (!s || !sharpness_structure_has_name (s, SHARPNESS_FIELD_COMPARE_SUMMARY))
    return;
  if ((v = sharpness_structure_get (s, SHARPNESS_FIELD_REF_FRAMES)) &&
      G_VALUE_HOLDS_UINT64 (v))
    r->ref_frames = g_value_get_uint64 (v);
  if ((v = sharpness_structure_get (s, SHARPNESS_FIELD_DIST_FRAMES)) &&
      G_VALUE_HOLDS_UINT64 (v))
    r->dist_frames = g_value_get_uint64 (v);
}

/* Plays @pipeline to EOS, handing each element message to @on_message;
 * FALSE with @error set on an error or a signal. */
/* The error of @msg for people: which file it is about (@sides: the
 * reference's and the distorted file's decoding), and what to do when
 * the two frame sizes differ. */
static gchar *
error_text (GstMessage * msg, const GError * err, const Side * sides)
{
  for (guint s = 0; s < 2; s++)
    if (msg->src == GST_OBJECT (sides[s].src) || msg->src ==
        GST_OBJECT (sides[s].dec) || gst_object_has_as_ancestor (msg->src,
            GST_OBJECT (sides[s].dec)))
      return g_strdup_printf ("%s%s: %s", s ? "" : "the reference ",
          sides[s].path, err->message);
  if (sides[0].width && sides[1].width && (sides[0].width !=
          sides[1].width || sides[0].height != sides[1].height))
    /* libvmaf takes frames of one size; scaling is a choice (the
     * algorithm, which side) that changes the score: the user's. */
    return g_strdup_printf ("its frames are %dx%d, the reference's %dx%d: "
        "VMAF compares frames of one size, as libvmaf does; scale it to "
        "the reference's size first (e.g. ffmpeg -i %s -vf scale=%d:%d:"
        "flags=bicubic -c:v ffv1 scaled.mkv)", sides[1].width,
        sides[1].height, sides[0].width, sides[0].height, sides[1].path,
        sides[0].width, sides[0].height);
  return g_strdup_printf ("%s: %s", GST_OBJECT_NAME (msg->src),
      err->message);
}

static gboolean
play (GstElement * pipeline, const Side * sides,
    void (*on_message) (GstMessage *, gpointer), gpointer data,
    gchar ** error)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  gboolean ok = FALSE, done = FALSE;

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* The element that refused says why on the bus. */
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    if (msg) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      *error = error_text (msg, err, sides);
      g_clear_error (&err);
      gst_message_unref (msg);
    } else {
      *error = g_strdup ("the pipeline could not start");
    }
  }
  while (!*error && !done) {
    /* Polled, so that a signal (a flag set by its handler) is seen within
     * a tenth of a second. */
    GstMessage *msg = gst_bus_timed_pop (bus, GST_SECOND / 10);

    if (stop_signal) {
      *error = g_strdup_printf ("interrupted by %s",
          scan_signal_name (stop_signal));
    } else if (!msg) {
      continue;
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *debug = NULL;

      gst_message_parse_error (msg, &err, &debug);
      if (!sharpness_tool_decode_missing_not_video (msg))
        *error = error_text (msg, err, sides);
      g_clear_error (&err);
      g_free (debug);
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_APPLICATION &&
        gst_message_has_name (msg, SHARPNESS_TOOL_DECODE_NO_VIDEO)) {
      /* The other side would wait for it for ever. */
      for (guint s = 0; s < 2; s++)
        if (msg->src == GST_OBJECT (sides[s].dec))
          *error = s ? g_strdup ("no video stream") :
              g_strdup_printf ("the reference %s has no video stream",
              sides[s].path);
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS ||
        gst_message_has_name (msg, THUMBS_DONE)) {
      done = ok = TRUE;
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT && on_message) {
      on_message (msg, data);
    }
    if (msg)
      gst_message_unref (msg);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  return ok;
}

static void
on_compare_message (GstMessage * msg, gpointer data)
{
  ScanRefResult *r = data;

  if (!take_values (r, msg))
    take_summary (r, msg);
}

/* The comparison of @r's files into @r; FALSE with @error set. */
static gboolean
compare (ScanRefResult * r, const ScanCommandLine * cl, GstContext * cuda,
    gboolean gpu_decode, gchar ** error)
{
  GstElement *pipeline = gst_pipeline_new (NULL);
  GstElement *cmp = gst_element_factory_make ("cudacompare", NULL);
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);
  Side sides[2] = { {0,}, {0,} };       /* the reference, the distorted */
  FormatMatch match = { {0,}, };
  GString *metrics = g_string_new ("vmaf");
  gboolean ok;

  if (!cmp) {
    *error = g_strdup ("no cudacompare element (is the gst-sharpness "
        "plugin installed?)");
    g_string_free (metrics, TRUE);
    gst_object_unref (pipeline);
    return FALSE;
  }
  for (guint c = 0; c < r->n_columns; c++) {
    if (r->columns[c] == SHARPNESS_FIELD_PSNR_Y)
      g_string_append (metrics, "+psnr");
    else if (r->columns[c] == SHARPNESS_FIELD_SSIM_Y)
      g_string_append (metrics, "+ssim");
    else if (r->columns[c] == SHARPNESS_FIELD_MS_SSIM)
      g_string_append (metrics, "+ms-ssim");
  }
  gst_util_set_object_arg (G_OBJECT (cmp), "metrics", metrics->str);
  g_string_free (metrics, TRUE);
  /* A file, not a stream: every metric asked for is computed, on the CPU
   * when no GPU is (auto would leave MS-SSIM out there). */
  gst_util_set_object_arg (G_OBJECT (cmp), "backend", cuda ? "auto" : "cpu");
  if (cl->vmaf_model)
    g_object_set (cmp, "vmaf-model", cl->vmaf_model, NULL);
  g_object_set (sink, "sync", FALSE, NULL);
  gst_bin_add_many (GST_BIN (pipeline), cmp, sink, NULL);
  gst_element_link (cmp, sink);
  if (cuda)
    gst_element_set_context (pipeline, cuda);
  sides[0].gpu = sides[1].gpu = cuda != NULL && gpu_decode;
  g_mutex_init (&match.lock);
  sides[0].match = sides[1].match = &match;
  sides[0].reference = TRUE;
  gst_element_link_pads (add_side (pipeline, &sides[0], r->reference),
      "src", cmp, "ref_sink");
  gst_element_link_pads (add_side (pipeline, &sides[1], r->distorted),
      "src", cmp, "dist_sink");

  ok = play (pipeline, sides, on_compare_message, r, error);
  g_object_get (cmp, "vmaf-model", &r->model, NULL);
  r->width = sides[0].width;
  r->height = sides[0].height;
  sharpness_tool_decode_unref (sides[0].decode);
  sharpness_tool_decode_unref (sides[1].decode);
  gst_object_unref (pipeline);
  if (ok && match.format && sides[1].decoded_format &&
      !g_str_equal (match.format, sides[1].decoded_format))
    g_ptr_array_add (r->notes, g_strdup_printf ("%s's frames (%s) were "
            "converted to the reference's format (%s) by videoconvert, as "
            "FFmpeg's libvmaf filter converts its inputs to one format",
            r->distorted, sides[1].decoded_format, match.format));
  gst_clear_object (&match.blocked);
  g_free (match.format);
  g_mutex_clear (&match.lock);
  g_free (sides[0].decoded_format);
  g_free (sides[1].decoded_format);
  if (ok && !sides[0].linked)
    *error = g_strdup_printf ("the reference %s has no video stream",
        r->reference);
  else if (ok && !sides[1].linked)
    *error = g_strdup ("no video stream");
  return ok && !*error;
}

/* The second pass: the frames of @r->worst, copied as they are decoded
 * (the n-th frame of each file: the pairs of a comparison of two files
 * of one frame rate). */
typedef struct
{
  ScanRefResult *r;
  gboolean reference;
  guint64 n;                    /* frames seen */
  guint64 last;                 /* the last frame needed */
  gint *sides_done;             /* sides past it, shared */
  GstElement *pipeline;
} ThumbProbe;

static GstPadProbeReturn
thumb_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  ThumbProbe *tp = data;
  guint64 frame = tp->n++;

  for (guint i = 0; i < tp->r->worst->len; i++) {
    ScanRefWorst *w = &g_array_index (tp->r->worst, ScanRefWorst, i);
    gchar **jpeg = tp->reference ? &w->ref_jpeg : &w->dist_jpeg;
    GstCaps *caps;
    GstVideoInfo vi;
    GstSample *sample;

    if (w->frame != frame || *jpeg)
      continue;
    caps = gst_pad_get_current_caps (pad);
    if (caps && gst_video_info_from_caps (&vi, caps) &&
        (sample = scan_thumb_copy_frame (&vi, caps,
                GST_PAD_PROBE_INFO_BUFFER (info)))) {
      *jpeg = scan_thumb_jpeg (sample);
      gst_sample_unref (sample);
    }
    if (caps)
      gst_caps_unref (caps);
  }
  if (frame == tp->last && g_atomic_int_add (tp->sides_done, 1) == 1)
    gst_element_post_message (tp->pipeline, gst_message_new_application
        (GST_OBJECT (tp->pipeline), gst_structure_new_empty (THUMBS_DONE)));
  return GST_PAD_PROBE_OK;
}

static void
thumbnails (ScanRefResult * r)
{
  GstElement *pipeline = gst_pipeline_new (NULL);
  gint sides_done = 0;
  ThumbProbe tps[2] = { {r, TRUE, 0, 0, &sides_done, pipeline},
  {r, FALSE, 0, 0, &sides_done, pipeline}
  };
  Side sides[2] = { {0,}, {0,} };
  gchar *error = NULL;

  for (guint i = 0; i < r->worst->len; i++)
    tps[0].last = tps[1].last = MAX (tps[0].last,
        g_array_index (r->worst, ScanRefWorst, i).frame);

  for (guint s = 0; s < 2; s++) {
    GstElement *sink = gst_element_factory_make ("fakesink", NULL);
    GstPad *pad = gst_element_get_static_pad (sink, "sink");

    /* System memory for the copy: always through videoconvert. */
    sides[s].convert_always = TRUE;
    g_object_set (sink, "sync", FALSE, NULL);
    gst_bin_add (GST_BIN (pipeline), sink);
    gst_element_link (add_side (pipeline, &sides[s], s ? r->distorted :
            r->reference), sink);
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, thumb_probe, &tps[s],
        NULL);
    gst_object_unref (pad);
  }
  if (!play (pipeline, sides, NULL, NULL, &error)) {
    g_ptr_array_add (r->notes, g_strdup_printf ("the worst frames' "
            "thumbnails: %s", error));
    g_free (error);
  }
  for (guint s = 0; s < 2; s++) {
    sharpness_tool_decode_unref (sides[s].decode);
    g_free (sides[s].decoded_format);
  }
  gst_object_unref (pipeline);
}

/* The columns: VMAF and its features as libvmaf's logs order them, then
 * --compare-metrics'; FALSE with @error for an unknown metric. */
static gboolean
set_columns (ScanRefResult * r, const gchar * list, gchar ** error)
{
  static const SharpnessField vmaf[] = { SHARPNESS_FIELD_VMAF,
    SHARPNESS_FIELD_INTEGER_ADM2, SHARPNESS_FIELD_INTEGER_ADM_SCALE0,
    SHARPNESS_FIELD_INTEGER_ADM_SCALE1, SHARPNESS_FIELD_INTEGER_ADM_SCALE2,
    SHARPNESS_FIELD_INTEGER_ADM_SCALE3, SHARPNESS_FIELD_INTEGER_MOTION2,
    SHARPNESS_FIELD_INTEGER_MOTION, SHARPNESS_FIELD_INTEGER_VIF_SCALE0,
    SHARPNESS_FIELD_INTEGER_VIF_SCALE1, SHARPNESS_FIELD_INTEGER_VIF_SCALE2,
    SHARPNESS_FIELD_INTEGER_VIF_SCALE3
  };
  static const SharpnessField psnr[] = { SHARPNESS_FIELD_PSNR_Y,
    SHARPNESS_FIELD_PSNR_U, SHARPNESS_FIELD_PSNR_V, SHARPNESS_FIELD_PSNR_AVG
  };
  static const SharpnessField ssim[] = { SHARPNESS_FIELD_SSIM_Y,
    SHARPNESS_FIELD_SSIM_U, SHARPNESS_FIELD_SSIM_V, SHARPNESS_FIELD_SSIM_ALL
  };
  static const SharpnessField ms_ssim[] = { SHARPNESS_FIELD_MS_SSIM };
  gchar **names = g_strsplit (list ? list : "", ",", -1);
  gboolean ok = TRUE, seen[3] = { FALSE, FALSE, FALSE };

  memcpy (r->columns, vmaf, sizeof vmaf);
  r->n_columns = G_N_ELEMENTS (vmaf);
  for (gchar ** n = names; ok && *n; n++) {
    const gchar *name = g_strstrip (*n);
    const SharpnessField *add;
    guint k, n_add;

    if (!*name)
      continue;
    if (g_str_equal (name, "psnr"))
      add = psnr, n_add = G_N_ELEMENTS (psnr), k = 0;
    else if (g_str_equal (name, "ssim"))
      add = ssim, n_add = G_N_ELEMENTS (ssim), k = 1;
    else if (g_str_equal (name, "ms-ssim"))
      add = ms_ssim, n_add = 1, k = 2;
    else {
      *error = g_strdup_printf ("--compare-metrics: unknown metric '%s' "
          "(known: psnr, ssim, ms-ssim; VMAF is always computed)", name);
      ok = FALSE;
      break;
    }
    if (seen[k])
      continue;
    seen[k] = TRUE;
    memcpy (r->columns + r->n_columns, add, n_add * sizeof *add);
    r->n_columns += n_add;
  }
  g_strfreev (names);
  return ok;
}

static void
result_clear (ScanRefResult * r)
{
  for (guint i = 0; r->worst && i < r->worst->len; i++) {
    ScanRefWorst *w = &g_array_index (r->worst, ScanRefWorst, i);
    g_free (w->ref_jpeg);
    g_free (w->dist_jpeg);
  }
  g_clear_pointer (&r->worst, g_array_unref);
  g_clear_pointer (&r->frames, g_array_unref);
  g_clear_pointer (&r->values, g_array_unref);
  g_clear_pointer (&r->notes, g_ptr_array_unref);
  g_clear_pointer (&r->model, g_free);
}

/* "DIR/NAME.vmaf.EXT" for @dist. */
static gchar *
output_path (const ScanCommandLine * cl, const gchar * dist, const gchar * ext)
{
  gchar *base = g_path_get_basename (dist);
  gchar *name = g_strdup_printf ("%s.vmaf.%s", base, ext);
  gchar *path = g_build_filename (cl->output_dir, name, NULL);

  g_free (base);
  g_free (name);
  return path;
}

/* Writes the three outputs of @r; FALSE (a message printed) when one
 * could not be. */
static gboolean
write_outputs (const ScanCommandLine * cl, const ScanRefResult * r)
{
  static const gchar *exts[] = { "csv", "json", "html" };
  void (*writers[]) (GString *, const ScanRefResult *) = { scan_ref_csv,
    scan_ref_json, scan_ref_report
  };
  gboolean ok = TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (exts); i++) {
    gchar *path = output_path (cl, r->distorted, exts[i]);
    ScanOutFile *o = scan_outfile_open (path);
    GString *text = g_string_new (NULL);

    if (o) {
      writers[i] (text, r);
      scan_outfile_write (o, text);
      ok = scan_outfile_commit (o) && ok;
    } else {
      ok = FALSE;
    }
    g_string_free (text, TRUE);
    g_free (path);
  }
  return ok;
}

/* The notes on what the comparison covers. */
static void
add_notes (ScanRefResult * r)
{
  if (r->ref_frames != r->dist_frames)
    g_ptr_array_add (r->notes, g_strdup_printf ("different frame counts: "
            "%s has %" G_GUINT64_FORMAT ", %s has %" G_GUINT64_FORMAT
            "; the first %" G_GUINT64_FORMAT " were compared",
            r->reference, r->ref_frames, r->distorted, r->dist_frames,
            (guint64) r->frames->len));
}

/* The summary line of @r on standard output. */
static void
summary_line (const ScanCommandLine * cl, const ScanRefResult * r)
{
  ScanRefPooled p;
  gchar *name = scan_name_for_line (r->distorted);
  gchar *path = output_path (cl, r->distorted, "{csv,json,html}");

  scan_ref_pool (r, 0, &p);
  g_print ("%s: VMAF mean %.6f, harmonic mean %.6f, min %.6f, 5th "
      "percentile %.6f (%" G_GUINT64_FORMAT " frames); %s\n", name, p.mean,
      p.harmonic_mean, p.min, p.p[1], p.n, path);
  for (guint i = 0; i < r->notes->len; i++)
    g_printerr ("sharpness-scan: %s: %s\n", name,
        (const gchar *) r->notes->pdata[i]);
  g_free (name);
  g_free (path);
}

/* Whether cudacompare takes --vmaf-model (it loads the model when it
 * starts): checked once, before any file, since every comparison would
 * fail the same way; FALSE with the element's message printed. */
static gboolean
check_model (const ScanCommandLine * cl)
{
  GstElement *cmp = gst_element_factory_make ("cudacompare", NULL);
  GstBus *bus;
  gboolean ok;

  if (!cmp) {
    g_printerr ("sharpness-scan: --reference: no cudacompare element (is "
        "the gst-sharpness plugin installed?)\n");
    return FALSE;
  }
  if (!cl->vmaf_model) {
    gst_object_unref (cmp);
    return TRUE;
  }
  bus = gst_bus_new ();
  gst_element_set_bus (cmp, bus);
  gst_util_set_object_arg (G_OBJECT (cmp), "metrics", "vmaf");
  gst_util_set_object_arg (G_OBJECT (cmp), "backend", "cpu");
  g_object_set (cmp, "vmaf-model", cl->vmaf_model, NULL);
  ok = gst_element_set_state (cmp, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE;
  if (!ok) {
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    GError *err = NULL;

    if (msg)
      gst_message_parse_error (msg, &err, NULL);
    g_printerr ("sharpness-scan: --vmaf-model %s: %s\n", cl->vmaf_model,
        err ? err->message : "cudacompare does not take it");
    g_clear_error (&err);
    if (msg)
      gst_message_unref (msg);
  }
  gst_element_set_state (cmp, GST_STATE_NULL);
  gst_element_set_bus (cmp, NULL);
  gst_object_unref (bus);
  gst_object_unref (cmp);
  return ok;
}

/* The lowest-VMAF frames, at most cl->worst, lowest first. */
static void
pick_worst (const ScanCommandLine * cl, ScanRefResult * r)
{
  guint n;
  guint *rank = scan_ref_rank (r, &n);

  for (guint i = 0; i < MIN (n, cl->worst); i++) {
    ScanRefWorst w = { g_array_index (r->frames, ScanRefFrame,
          rank[i]).frame, NULL, NULL
    };
    g_array_append_val (r->worst, w);
  }
  g_free (rank);
}

gint
scan_reference_run (const ScanCommandLine * cl)
{
  GstContext *cuda = NULL;
  gboolean any_error = FALSE, gpu_decode = FALSE;
  gchar *error = NULL;
  ScanRefResult probe = { 0, };

  if (!g_file_test (cl->reference, G_FILE_TEST_EXISTS)) {
    g_printerr ("sharpness-scan: --reference %s: no such file\n",
        cl->reference);
    return 2;
  }
  if (!g_file_test (cl->reference, G_FILE_TEST_IS_REGULAR)) {
    g_printerr ("sharpness-scan: --reference %s: not a regular file\n",
        cl->reference);
    return 2;
  }
  if (!cl->inputs || !cl->inputs[0]) {
    g_printerr ("sharpness-scan: --reference: no file to compare with it\n"
        "Try 'sharpness-scan --help'.\n");
    return 2;
  }
  if (!set_columns (&probe, cl->compare_metrics, &error)) {
    g_printerr ("sharpness-scan: %s\n", error);
    g_free (error);
    return 2;
  }
  if (!check_model (cl))
    return 2;
  if (!g_file_test (cl->output_dir, G_FILE_TEST_IS_DIR)) {
    g_printerr ("sharpness-scan: --output-dir %s: not a directory\n",
        cl->output_dir);
    return 2;
  }
  /* Two files of one name would write the same outputs. */
  for (guint i = 0; cl->inputs[i]; i++)
    for (guint j = 0; j < i; j++) {
      gchar *a = g_path_get_basename (cl->inputs[i]);
      gchar *b = g_path_get_basename (cl->inputs[j]);
      gboolean same = g_str_equal (a, b);

      g_free (a);
      g_free (b);
      if (same) {
        g_printerr ("sharpness-scan: --reference: %s and %s have the same "
            "file name, so their outputs would overwrite each other: "
            "compare them in two runs with two --output-dir\n",
            cl->inputs[j], cl->inputs[i]);
        return 2;
      }
    }

  /* As the scan: NVDEC first when the CUDA backend is usable, else the
   * CPU's decoders. */
  if (!cl->settings.cpu) {
    gboolean nv = sharpness_tool_gpu_rank_decoders (GST_RANK_NONE);

    if (sharpness_tool_gpu_backend_usable (-1, &cuda) && nv)
      gpu_decode = sharpness_tool_gpu_rank_decoders (GST_RANK_PRIMARY + 1);
  } else {
    sharpness_tool_gpu_rank_decoders (GST_RANK_NONE);
  }
  scan_outfile_on_signals (on_signal);

  for (guint i = 0; cl->inputs[i] && !stop_signal; i++) {
    ScanRefResult r = { 0, };
    gint64 t0 = g_get_monotonic_time ();

    set_columns (&r, cl->compare_metrics, &error);
    r.reference = cl->reference;
    r.distorted = cl->inputs[i];
    r.frames = g_array_new (FALSE, FALSE, sizeof (ScanRefFrame));
    r.values = g_array_new (FALSE, FALSE, sizeof (gdouble));
    r.worst = g_array_new (FALSE, FALSE, sizeof (ScanRefWorst));
    r.notes = g_ptr_array_new_with_free_func (g_free);
    if (!g_file_test (r.distorted, G_FILE_TEST_IS_REGULAR))
      error = g_strdup ("no such file");
    else if (compare (&r, cl, cuda, gpu_decode, &error) &&
        r.frames->len == 0)
      error = g_strdup ("no frame was compared");
    if (!error) {
      add_notes (&r);
      pick_worst (cl, &r);
      if (r.worst->len)
        thumbnails (&r);
    }
    if (stop_signal) {
      /* Its outputs would be a part: none is written for it. */
      g_printerr ("sharpness-scan: %s: stopped by %s: no outputs written "
          "for it\n", r.distorted, scan_signal_name (stop_signal));
    } else if (error && g_str_has_prefix (error, "the reference ")) {
      /* Every other comparison would fail the same way. */
      gchar *name = scan_name_for_line (error + strlen ("the reference "));
      g_printerr ("sharpness-scan: --reference %s\n", name);
      g_free (name);
      g_free (error);
      result_clear (&r);
      g_clear_pointer (&cuda, gst_context_unref);
      return 2;
    } else if (error) {
      gchar *name = scan_name_for_line (r.distorted);
      g_printerr ("sharpness-scan: %s: %s\n", name, error);
      g_free (name);
      any_error = TRUE;
    } else {
      r.elapsed = (g_get_monotonic_time () - t0) / 1e6;
      if (!write_outputs (cl, &r))
        any_error = TRUE;
      else if (!cl->settings.quiet)
        summary_line (cl, &r);
    }
    g_clear_pointer (&error, g_free);
    result_clear (&r);
  }
  g_clear_pointer (&cuda, gst_context_unref);
  if (stop_signal)
    return 128 + stop_signal;
  return any_error ? 2 : 0;
}
