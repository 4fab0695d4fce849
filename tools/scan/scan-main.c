/* sharpness-scan: find the blurry segments of recorded video files.
 * This file: the command line (options, their checks, the manual page)
 * and main.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One pipeline per input (scan-pipeline.c), --jobs at a time
 * (scan-scheduler.c); a probe after the last cudasharpness reads the
 * scores of every frame (scan-frames.c); results are written in input
 * order as files complete (scan-output.c, scan-report.c), then freed, so
 * that memory does not grow with the number of inputs.  docs/scan.md.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "scan-scheduler.h"
#include "scan-setup.h"

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
/* Setup */

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
  GOptionContext *ctx;
  GError *err = NULL;
  ScanSettings settings = { 0, }, *s = &settings;
  ScanScheduler sched = { 0, };
  GPtrArray *inputs;
  guint shard_i = 0, shard_n = 1;
  gboolean write_ok;
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
  if (opt_list && !scan_inputs_read_list (opt_list, inputs, &err)) {
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
    scan_gpu_rank_decoders (GST_RANK_NONE);
  else if (scan_gpu_rank_decoders (GST_RANK_NONE) &&
      scan_gpu_backend_usable (&sched.cuda_context))
    s->gpu_decode = scan_gpu_rank_decoders (GST_RANK_PRIMARY + 1);
  /* Measured (docs/scan.md, Speed): one software decoder does not keep 2
   * cores busy, two pipelines do; on an H200, 8 GPU-decoded 1080p files
   * at a time give 1.4x the throughput of 4 (its 7 NVDEC engines). */
  s->jobs = opt_jobs > 0 ? (guint) opt_jobs : s->gpu_decode ? 8 :
      MAX (2, g_get_num_processors () / 4);

  sched.settings = s;
  for (guint i = 0; i < inputs->len; i++) {
    gchar *uri;

    if (i % shard_n != shard_i)
      continue;
    uri = scan_inputs_to_uri (inputs->pdata[i]);
    sched.jobs = g_renew (ScanJob *, sched.jobs, sched.n_jobs + 1);
    sched.jobs[sched.n_jobs] = scan_job_new (sched.n_jobs, inputs->pdata[i],
        uri, s);
    sched.n_jobs++;
    g_free (uri);
  }

  sched.summaries_to_stderr = g_strcmp0 (opt_csv, "-") == 0 ||
      g_strcmp0 (opt_json, "-") == 0 || g_strcmp0 (opt_report, "-") == 0;
  if (opt_csv)
    sched.csv = scan_outfile_open (opt_csv);
  if (opt_json)
    sched.json = scan_outfile_open (opt_json);
  if (opt_report)
    sched.html = scan_outfile_open (opt_report);
  if ((opt_csv && !sched.csv) || (opt_json && !sched.json) ||
      (opt_report && !sched.html))
    return 2;

  scan_scheduler_run (&sched);

  write_ok = scan_outfile_close (sched.csv, opt_csv) &&
      scan_outfile_close (sched.json, opt_json) &&
      scan_outfile_close (sched.html, opt_report);
  status = (sched.any_error || !write_ok) ? 2 :
      (opt_fail && sched.any_blurry) ? 1 : 0;
  free_jobs (&sched);
  g_ptr_array_unref (inputs);
  g_clear_pointer (&sched.cuda_context, gst_context_unref);
  return status;
}
