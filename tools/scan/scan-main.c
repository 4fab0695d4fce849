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
 * docs/scan.md.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

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

static gboolean
open_outputs (ScanScheduler * sched, const ScanCommandLine * cl)
{
  sched->summaries_to_stderr = g_strcmp0 (cl->csv, "-") == 0 ||
      g_strcmp0 (cl->json, "-") == 0 || g_strcmp0 (cl->report, "-") == 0;
  if (cl->csv && !(sched->csv = scan_outfile_open (cl->csv)))
    return FALSE;
  if (cl->json && !(sched->json = scan_outfile_open (cl->json)))
    return FALSE;
  if (cl->report && !(sched->html = scan_outfile_open (cl->report)))
    return FALSE;
  return TRUE;
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
  gboolean write_ok;
  gint status;

  if ((status = scan_options_parse (&argc, &argv, &cl)) >= 0)
    return status;
  if (!(inputs = collect_inputs (&cl)))
    return 2;
  if (!gst_element_factory_find ("cudasharpness")) {
    g_printerr ("sharpness-scan: the cudasharpness element is missing (is "
        "the gst-sharpness plugin installed, or GST_PLUGIN_PATH set?)\n");
    return 2;
  }
  scan_errors_init ();

  if (s->cpu)
    sharpness_tool_gpu_rank_decoders (GST_RANK_NONE);
  else if (sharpness_tool_gpu_rank_decoders (GST_RANK_NONE) &&
      sharpness_tool_gpu_backend_usable (-1, &sched.cuda_context))
    s->gpu_decode = sharpness_tool_gpu_rank_decoders (GST_RANK_PRIMARY + 1);
  /* Measured (docs/scan.md, Speed): one software decoder does not keep 2
   * cores busy, two pipelines do; on an H200, 8 GPU-decoded 1080p files
   * at a time give 1.4x the throughput of 4 (its 7 NVDEC engines). */
  s->jobs = cl.jobs > 0 ? cl.jobs : s->gpu_decode ? 8 :
      MAX (2, g_get_num_processors () / 4);

  sched.settings = s;
  for (guint i = 0; i < inputs->len; i++) {
    gchar *uri;

    if (i % cl.shard_n != cl.shard_i)
      continue;
    uri = scan_inputs_to_uri (inputs->pdata[i]);
    sched.jobs = g_renew (ScanJob *, sched.jobs, sched.n_jobs + 1);
    sched.jobs[sched.n_jobs] = scan_job_new (sched.n_jobs, inputs->pdata[i],
        uri, s);
    sched.n_jobs++;
    g_free (uri);
  }

  if (!open_outputs (&sched, &cl)) {
    scan_outfile_discard (sched.csv);
    scan_outfile_discard (sched.json);
    scan_outfile_discard (sched.html);
    return 2;
  }

  scan_scheduler_run (&sched);

  write_ok = scan_outfile_commit (sched.csv);
  write_ok = scan_outfile_commit (sched.json) && write_ok;
  write_ok = scan_outfile_commit (sched.html) && write_ok;
  if (sched.signal)
    status = 128 + sched.signal;
  else if (sched.any_error || !write_ok)
    status = 2;
  else if (cl.fail_on_damaged && sched.any_damaged)
    status = 3;
  else if (cl.fail_on_blurry && sched.any_blurry)
    status = 1;
  else
    status = 0;
  free_jobs (&sched);
  g_ptr_array_unref (inputs);
  g_clear_pointer (&sched.cuda_context, gst_context_unref);
  return status;
}
