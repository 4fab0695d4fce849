/* sharpness-scan: find the blurry segments of recorded video files.
 * This file: main, from the command line to the exit status.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One pipeline per input (scan-pipeline.c), --jobs at a time
 * (scan-scheduler.c); a probe after the last cudasharpness reads the
 * scores of every frame (scan-frames.c); results are written in input
 * order as files complete (scan-output.c, scan-json.c, scan-report.c),
 * then freed, so that memory does not grow with the number of inputs.
 * docs/reference/sharpness-scan.md.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "scan-reference.h"
#include "scan-scheduler.h"
#include "scan-setup.h"
#include "sharpness-tool-gpu.h"

/* The inputs: the command line's, then --input-list's, directories
 * replaced by their files; NULL, with a message, when they are wrong. */
static GPtrArray *
collect_inputs (const ScanCommandLine * cl)
{
  GPtrArray *inputs = g_ptr_array_new_with_free_func (g_free);
  GError *err = NULL;
  guint stdin_uses = cl->list && g_str_equal (cl->list, "-");

  for (gchar ** in = cl->inputs; in && *in; in++) {
    g_ptr_array_add (inputs, g_strdup (*in));
    stdin_uses += g_str_equal (*in, "-");
  }
  if (stdin_uses > 1) {
    g_printerr ("sharpness-scan: standard input ('-') given %s: it can be "
        "read once\n", cl->list && g_str_equal (cl->list, "-") ?
        "as an input and as --input-list" : "twice");
    g_ptr_array_unref (inputs);
    return NULL;
  }
  if (cl->list && !scan_inputs_read_list (cl->list, inputs, &err)) {
    g_printerr ("sharpness-scan: --input-list: %s\n", err->message);
    g_clear_error (&err);
    g_ptr_array_unref (inputs);
    return NULL;
  }
  if (inputs->len == 0) {
    g_printerr ("sharpness-scan: no input\nTry 'sharpness-scan --help'.\n");
    g_ptr_array_unref (inputs);
    return NULL;
  }
  scan_inputs_expand (inputs);
  return inputs;
}

/* The metrics the element scores on the CPU only when asked (backend=cpu):
 * too slow to keep up with a stream (sharpness-metric.h). */
static gboolean
needs_gpu (const ScanSettings * s)
{
  for (guint m = 0; m < s->n_metrics; m++)
    if (sharpness_metric_info[s->metrics[m]].cpu == SHARPNESS_CPU_HEAVY)
      return TRUE;
  return FALSE;
}

/* Their names, comma-separated (for the error; static, overwritten). */
static const gchar *
heavy_metrics (const ScanSettings * s)
{
  static gchar buf[256];

  buf[0] = 0;
  for (guint m = 0; m < s->n_metrics; m++)
    if (sharpness_metric_info[s->metrics[m]].cpu == SHARPNESS_CPU_HEAVY) {
      if (buf[0])
        g_strlcat (buf, ",", sizeof (buf));
      g_strlcat (buf, sharpness_metric_info[s->metrics[m]].nick,
          sizeof (buf));
    }
  return buf;
}

static void
free_jobs (ScanScheduler * sched)
{
  for (guint i = 0; i < sched->n_jobs; i++)
    scan_job_free (sched->jobs[i]);
  g_free (sched->jobs);
}

int
main (int argc, char **argv)
{
  ScanCommandLine cl = { {{0}}, };
  ScanSettings *s = &cl.settings;
  ScanScheduler sched = { 0, };
  GPtrArray *inputs;
  GError *err = NULL;
  gboolean gpu = FALSE;
  gint status;

  if ((status = scan_options_parse (&argc, &argv, &cl)) >= 0)
    return status;
  if (cl.merge)
    return scan_merge_run (&cl);
  if (cl.reference)
    return scan_reference_run (&cl);
  if (!(inputs = collect_inputs (&cl)))
    return 2;
  if (!scan_content_resolve (s, cl.content, &err)) {
    g_printerr ("sharpness-scan: %s\n", err->message);
    g_clear_error (&err);
    g_ptr_array_unref (inputs);
    return 2;
  }

  if (s->cpu) {
    sharpness_tool_gpu_rank_decoders (GST_RANK_NONE);
  } else {
    gboolean nv_decoders = sharpness_tool_gpu_rank_decoders (GST_RANK_NONE);

    if ((nv_decoders || needs_gpu (s)) &&
        sharpness_tool_gpu_backend_usable (-1, &sched.cuda_context))
      gpu = TRUE;
    if (gpu && nv_decoders)
      s->gpu_decode = sharpness_tool_gpu_rank_decoders (GST_RANK_PRIMARY + 1);
  }
  if (!s->cpu && !gpu && needs_gpu (s)) {
    /* The element leaves such frames unscored rather than fall behind a
     * stream: a scan would report every file sharp. */
    g_printerr ("sharpness-scan: --metric %s: no CUDA GPU is usable here, "
        "and %s takes seconds per frame on the CPU, so no frame would be "
        "scored: give --cpu to score it on the CPU all the same (slow), or "
        "scan on a machine with a CUDA GPU\n", heavy_metrics (s),
        heavy_metrics (s));
    g_ptr_array_unref (inputs);
    return 2;
  }
  /* One software decoder does not keep 2 cores busy, two pipelines do;
   * GPUs have several NVDEC engines, which 8 files at a time keep busy
   * (docs/reference/sharpness-scan.md, Speed). */
  s->jobs = cl.jobs > 0 ? cl.jobs : s->gpu_decode ? 8 :
      MAX (2, g_get_num_processors () / 4);

  sched.settings = s;
  s->shard_i = cl.shard_i;
  s->shard_n = cl.shard_n;
  s->inputs_total = inputs->len;
  for (guint i = 0; i < inputs->len; i++) {
    gchar *uri;

    if (i % cl.shard_n != cl.shard_i)
      continue;
    uri = scan_inputs_to_uri (inputs->pdata[i]);
    sched.jobs = g_renew (ScanJob *, sched.jobs, sched.n_jobs + 1);
    sched.jobs[sched.n_jobs] = scan_job_new (i, inputs->pdata[i], uri, s);
    sched.n_jobs++;
    g_free (uri);
  }

  if (!scan_open_outputs (&sched, cl.csv, cl.json, cl.report)) {
    free_jobs (&sched);
    g_ptr_array_unref (inputs);
    return 2;
  }

  scan_scheduler_run (&sched);

  status = scan_scheduler_status (&sched, cl.fail_on_blurry,
      cl.fail_on_damaged);
  free_jobs (&sched);
  g_ptr_array_unref (inputs);
  g_clear_pointer (&sched.cuda_context, gst_context_unref);
  return status;
}
