/* sharpness-scan: one input's scan, from its pipeline to its results.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A job is made by the scheduler, started (scan_job_start), and ends once:
 * scan_job_finish, from its bus (EOS, an error), the watchdog or the
 * scheduler, calls the job's `done` callback.  Between the two, the
 * streaming threads fill its frames through the probe (scan-frames.c);
 * the main thread reads only the fields under `lock`.
 */
#ifndef SCAN_JOB_H
#define SCAN_JOB_H

#include <gio/gio.h>

#include "scan.h"
#include "sharpness-tool-decode.h"

G_BEGIN_DECLS

typedef struct _ScanJob ScanJob;

/* The application message of a job's pipeline to its bus watch:
 * --duration or --max-frames reached (scan-frames.c). */
#define SCAN_LIMIT_MESSAGE "sharpness-scan-limit"

typedef void (*ScanJobDone) (ScanJob * job, gpointer user_data);

struct _ScanJob
{
  ScanFile file;
  GstElement *pipeline;
  GstElement *decodebin;        /* demuxers, parsers and decoders are in it */
  SharpnessToolDecode *decode;  /* what decodebin decodes and found */
  guint bus_watch;
  /* The input's descriptor when the tool opened it (a FIFO or a device,
   * read by fdsrc), closed at the end; else -1. */
  gint input_fd;

  /* Streaming thread (the probes), then the main thread after the end. */
  /* The content states and segments of every kind: the state machine the
   * element runs, fed from its meta (scan-frames.c). */
  SharpnessContent *content;
  SharpnessContentSettings content_settings;
  gboolean cuda_caps;           /* the caps of vinfo are CUDA memory */
  GstSegment segment;
  GstVideoInfo vinfo;
  GstCaps *sample_caps;         /* system-memory caps of the frames */
  /* Each kind's frame for the thumbnail of its open stretch (scan-frames.c,
   * keep_thumbs ()). */
  GstSample *open_thumb[SHARPNESS_EVENT_N_KINDS];
  guint64 open_thumb_frame[SHARPNESS_EVENT_N_KINDS];
  gboolean prev_black, prev_frozen;     /* of the previous frame */
  GstElement *queue;            /* the scorers' queue */
  GstPad *video_branch;         /* where decoded video links */
  guint64 first_pts;            /* stream time of the first frame */
  guint64 prev_pts, prev_duration;      /* of the previous frame */
  gboolean limit_reached;       /* --duration or --max-frames: frames after
                                 * it are dropped */

  /* Written by streaming threads, read by the main thread. */
  GMutex lock;
  guint64 done_frames;
  guint64 position;             /* stream time of the last frame */
  gboolean no_video;            /* the input has no video stream */

  /* Main thread. */
  gint64 t_start;
  gboolean running, finished;
  /* Watchdog: frames seen at the last check, and when they last changed. */
  guint64 watch_frames;
  gint64 watch_time;
  /* scan-errors.c: the network check of a source's unexplained error. */
  GCancellable *diagnosis;
  gchar *source_warning;        /* last warning of the source element */
  gchar *scorer_warning;        /* first warning of a cudasharpness */

  ScanJobDone done;
  gpointer done_data;
};

ScanJob *scan_job_new (guint index, const gchar * input, const gchar * uri,
    const ScanSettings * settings);
void scan_job_free (ScanJob * job);

/* Checks the input, builds the pipeline and sets it playing; an input that
 * fails at once is finished (its `done` called) before this returns.
 * @cuda_context: given to the pipeline (one context for every file), or
 * NULL. */
void scan_job_start (ScanJob * job, GstContext * cuda_context);

/* Ends the job (the first call only): stops the pipeline, checks what was
 * decoded, closes the open segment, makes the thumbnails and calls `done`.
 * Takes @error (NULL: the scan completed). */
void scan_job_finish (ScanJob * job, gchar * error);

/* Frees the frames, scores and segments once written. */
void scan_job_release_results (ScanJob * job);

/* Frames seen so far, and the fraction of the input done (or a negative
 * value when its duration is unknown).  Main thread. */
guint64 scan_job_progress (ScanJob * job, gdouble * fraction);

/* scan-pipeline.c: the pipeline, its dynamic links and its bus. */
gboolean scan_pipeline_build (ScanJob * job, GstContext * cuda_context,
    GError ** error);
/* Whether the video stream decoded is of a still image's codec (any
 * thread). */
gboolean scan_pipeline_image_codec (ScanJob * job);
/* Once the pipeline stopped: the video streams decodebin found, and the
 * codec of the one scanned unless a demuxer's stream collection named it
 * already. */
void scan_pipeline_describe (ScanJob * job);

/* scan-frames.c: the probe after the last scorer, and the one on the
 * decoder's pad (what it produced, before any conversion). */
GstPadProbeReturn scan_frames_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer job);
GstPadProbeReturn scan_frames_decoded_probe (GstPad * pad,
    GstPadProbeInfo * info, gpointer job);
/* Closes the open segments at the end of a completed scan. */
void scan_frames_finish (ScanJob * job);
/* Drops the frames kept for thumbnails of open segments. */
void scan_frames_clear_thumbs (ScanJob * job);

/* scan-errors.c: why an input failed, in words a user can act on. */
/* The text of @msg, an ERROR of @job's pipeline, or NULL when a check has
 * started that will finish the job itself. */
gchar *scan_errors_describe (ScanJob * job, GstMessage * msg);
/* Stops the network check of a finished job. */
void scan_errors_stop (ScanJob * job);

G_END_DECLS
#endif /* SCAN_JOB_H */
