/* sharpness-scan's command line: its options, their checks (each bad
 * value named with its valid range) and the manual page (--help).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "scan-setup.h"
#include "sharpness-tool-rule.h"
#include "sharpness-tool-shard.h"

/* The default rule: tools/common/sharpness-tool-rule.h. */
#define DEFAULT_METRICS SHARPNESS_TOOL_DEFAULT_METRIC
#define FALLBACK_METRICS SHARPNESS_TOOL_FALLBACK_METRIC
#define DEFAULT_BLUR_EFFECT_THRESHOLD SHARPNESS_TOOL_BLUR_EFFECT_THRESHOLD
#define DEFAULT_BLUR_EFFECT_RELATIVE SHARPNESS_TOOL_BLUR_EFFECT_RELATIVE
#define DEFAULT_RELATIVE SHARPNESS_TOOL_DEFAULT_RELATIVE
#define DEFAULT_WINDOW SHARPNESS_TOOL_DEFAULT_WINDOW
#define DEFAULT_MIN_DURATION SHARPNESS_TOOL_DEFAULT_MIN_DURATION
#define DEFAULT_MAX_GAP SHARPNESS_TOOL_DEFAULT_MAX_GAP
/* The element's `window` range. */
#define MAX_WINDOW 10000
#define MAX_JOBS 1024
/* "Not given" for the options whose absence means something. */
#define UNSET G_MININT

static gchar *opt_metrics = NULL;
static gdouble opt_threshold = NAN, opt_relative = NAN;
static gint opt_window = UNSET, opt_max_gap = UNSET;
static gint opt_jobs = UNSET;
static gdouble opt_min_duration = NAN;
static gdouble opt_duration = NAN;
static gint64 opt_max_frames = UNSET;
static gchar *opt_csv, *opt_json, *opt_report, *opt_shard, *opt_list;
static gboolean opt_cpu, opt_quiet, opt_fail, opt_fail_damaged, opt_version;
static gboolean opt_json_full, opt_merge;
static gchar *opt_reference, *opt_vmaf_model, *opt_compare_metrics;
static gchar *opt_output_dir;
static gint opt_worst = UNSET;
static gchar *opt_detect;
static gdouble opt_content[SCAN_CONTENT_N_OPTIONS] = { NAN, NAN, NAN, NAN,
  NAN, NAN
};

static gchar **opt_inputs;

static GOptionEntry entries[] = {
  {"metric", 'm', 0, G_OPTION_ARG_STRING, &opt_metrics,
      "Metrics to compute, comma-separated (default " DEFAULT_METRICS "); "
      "the first decides which frames are blurry", "LIST"},
  {"threshold", 't', 0, G_OPTION_ARG_DOUBLE, &opt_threshold,
      "Absolute threshold of the first metric, >= 0, 0 = off (default: "
      "0.52 for blur-effect, else off); the only test of still images",
      "VALUE"},
  {"relative-threshold", 'r', 0, G_OPTION_ARG_DOUBLE, &opt_relative,
      "Relative threshold in [0, 1], 0 = off (default: 0.8 for blur-effect, "
      "else 0.6): blurry when worse than R x the median of the last WINDOW "
      "sharp frames", "R"},
  {"window", 'w', 0, G_OPTION_ARG_INT, &opt_window,
      "Frames of the relative test's reference, 1 to 10000 (default 25)",
      "N"},
  {"min-duration", 0, 0, G_OPTION_ARG_DOUBLE, &opt_min_duration,
      "Shortest blurry segment reported, in seconds, >= 0 (default 0.5)",
      "SECONDS"},
  {"max-gap", 0, 0, G_OPTION_ARG_INT, &opt_max_gap,
      "Sharp frames a segment may contain, >= 0 (default 2)", "FRAMES"},
  {"detect", 0, 0, G_OPTION_ARG_STRING, &opt_detect,
      "Segments found besides blurry ones, comma-separated: black, freeze, "
      "or none (default black,freeze)", "LIST"},
  {"black-min-duration", 0, 0, G_OPTION_ARG_DOUBLE,
        &opt_content[SCAN_CONTENT_BLACK_MIN_DURATION],
      "Shortest black segment, in seconds (default 2, FFmpeg's d)",
      "SECONDS"},
  {"black-ratio", 0, 0, G_OPTION_ARG_DOUBLE,
        &opt_content[SCAN_CONTENT_BLACK_RATIO],
      "Share of black luma samples that makes a frame black, 0 to 1 "
      "(default 0.98, FFmpeg's pic_th)", "R"},
  {"black-pixel-threshold", 0, 0, G_OPTION_ARG_DOUBLE,
        &opt_content[SCAN_CONTENT_BLACK_PIXEL_THRESHOLD],
      "Luma level of a black sample, as a share of the range, 0 to 1 "
      "(default 0.1, FFmpeg's pix_th)", "T"},
  {"freeze-min-duration", 0, 0, G_OPTION_ARG_DOUBLE,
        &opt_content[SCAN_CONTENT_FREEZE_MIN_DURATION],
      "Shortest frozen segment, in seconds (default 2, FFmpeg's d)",
      "SECONDS"},
  {"freeze-noise", 0, 0, G_OPTION_ARG_DOUBLE,
        &opt_content[SCAN_CONTENT_FREEZE_NOISE],
      "Noise a frozen picture may have, in dB (default -60, FFmpeg's n)",
      "DB"},
  {"flat-threshold", 0, 0, G_OPTION_ARG_DOUBLE,
        &opt_content[SCAN_CONTENT_FLAT_THRESHOLD],
      "Share of edge pixels under which a frame is flat (no blur verdict), "
      "0 = never (default 0.02)", "S"},
  {"duration", 'd', 0, G_OPTION_ARG_DOUBLE, &opt_duration,
      "Scan at most SECONDS (> 0) of each input, from its first frame: "
      "the end of a live input", "SECONDS"},
  {"max-frames", 0, 0, G_OPTION_ARG_INT64, &opt_max_frames,
      "Scan at most N (>= 1) frames of each input", "N"},
  {"csv", 0, 0, G_OPTION_ARG_FILENAME, &opt_csv,
      "Write one row per frame to FILE ('-': standard output)", "FILE"},
  {"json", 0, 0, G_OPTION_ARG_FILENAME, &opt_json,
      "Write segments and summaries to FILE ('-': standard output)", "FILE"},
  {"report", 0, 0, G_OPTION_ARG_FILENAME, &opt_report,
      "Write a self-contained HTML report to FILE", "FILE.html"},
  {"json-full", 0, 0, G_OPTION_ARG_NONE, &opt_json_full,
      "Put every frame (scores, states, measurements) and the thumbnails in "
      "the JSON: what --merge needs for the CSV and the report", NULL},
  {"merge", 0, 0, G_OPTION_ARG_NONE, &opt_merge,
      "The inputs are the --json-full --json outputs of a --shard scan: "
      "write --json, --csv and --report for all of them", NULL},
  {"reference", 0, 0, G_OPTION_ARG_FILENAME, &opt_reference,
      "Compare each input with SRC (VMAF): a CSV, a JSON and a report page "
      "per input in --output-dir", "SRC"},
  {"vmaf-model", 0, 0, G_OPTION_ARG_STRING, &opt_vmaf_model,
      "--reference: vmaf_v0.6.1 (default), vmaf_v0.6.1neg, vmaf_4k_v0.6.1 "
      "or a model JSON file", "MODEL"},
  {"compare-metrics", 0, 0, G_OPTION_ARG_STRING, &opt_compare_metrics,
      "--reference: also psnr, ssim, ms-ssim (comma-separated)", "LIST"},
  {"output-dir", 0, 0, G_OPTION_ARG_FILENAME, &opt_output_dir,
      "--reference: where the outputs go (default: the current directory)",
      "DIR"},
  {"worst", 0, 0, G_OPTION_ARG_INT, &opt_worst,
      "--reference: the report shows the N lowest-VMAF frames (default 6, "
      "0 to 100)", "N"},
  {"cpu", 0, 0, G_OPTION_ARG_NONE, &opt_cpu,
      "Decode and score on the CPU even when a CUDA GPU is usable", NULL},
  {"jobs", 'j', 0, G_OPTION_ARG_INT, &opt_jobs,
      "Files scanned at a time, 1 to 1024 (default: 8 with GPU decoding, "
      "else a quarter of the CPU cores, at least 2)", "N"},
  {"shard", 0, 0, G_OPTION_ARG_STRING, &opt_shard,
      "Scan only inputs I, I+N, I+2N... (0-based I) of the list", "I/N"},
  {"input-list", 0, 0, G_OPTION_ARG_FILENAME, &opt_list,
      "Read more inputs from FILE, one per line ('-': standard input)",
      "FILE"},
  {"fail-on-blurry", 0, 0, G_OPTION_ARG_NONE, &opt_fail,
      "Exit with status 1 when a blurry segment or image is found", NULL},
  {"fail-on-damaged", 0, 0, G_OPTION_ARG_NONE, &opt_fail_damaged,
      "Exit with status 3 when a file is damaged (lost or corrupted "
      "frames, decoding warnings)", NULL},
  {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt_quiet,
      "No progress and no summary lines (errors are still printed)", NULL},
  {"version", 0, 0, G_OPTION_ARG_NONE, &opt_version,
      "Print the version and exit", NULL},
  {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt_inputs,
      NULL, "FILE|DIRECTORY|URI|-... | --merge PART.json..."},
  {NULL}
};

static const gchar description[] =
    "DESCRIPTION\n"
    "  Decodes each input with decodebin -- on the GPU (nvh264dec, ...)\n"
    "  when one is usable and not --cpu -- converts the frames the scorers\n"
    "  do not take as they come (ProRes, 4:2:2, RGB, 12-bit...), scores\n"
    "  every frame with the cudasharpness element, one element per metric,\n"
    "  as fast as the machine goes, and turns the frames' content states\n"
    "  into blurry, black and frozen segments.\n"
    "\n"
    "INPUTS\n"
    "  A file name, a URI (http://, rtsp://, udp://...), '-' for standard\n"
    "  input (a streamable format: MPEG-TS, Matroska, MP4 with its index\n"
    "  first), or a directory: its image and video files (by extension),\n"
    "  sorted by name, not its subdirectories. A still image (JPEG, PNG...)\n"
    "  gets one score and a verdict from --threshold alone (the relative\n"
    "  rule needs the frames before it). A live input ends with\n"
    "  --duration or --max-frames, or a signal.\n"
    "\n"
    "BLUR RULE\n"
    "  A frame is blurry when the first metric's score is worse than\n"
    "  --threshold, or worse than --relative-threshold times the median of\n"
    "  the last --window sharp frames (blurry frames stay out of that\n"
    "  reference; a scene cut restarts it). Without either option the rule\n"
    "  is blur-effect > 0.52 or R = 0.8 for the blur-effect metric (the\n"
    "  default: it is normalised by the frame's own content, so one\n"
    "  threshold fits all footage, and the relative test catches milder\n"
    "  blurs) and the relative rule with R = 0.6 for the others; giving\n"
    "  one of the two options turns the other off.\n"
    "  Blurry frames separated by at most --max-gap sharp frames form a\n"
    "  run; runs lasting --min-duration or more are the segments. The\n"
    "  element's alarms (min-blurry-duration, max-blurry-gap) use the same\n"
    "  code.\n"
    "\n"
    "CONTENT STATES\n"
    "  Each frame gets one state, the first that applies: black (as FFmpeg's\n"
    "  blackdetect), frozen (as freezedetect), flat (too little structure\n"
    "  for a verdict), blurry, normal. A black, frozen or flat frame is\n"
    "  never blurry and never starts or extends a blurry segment. --detect\n"
    "  names the kinds of segments found besides blurry ones: black\n"
    "  segments (blackdetect's intervals) and frozen segments\n"
    "  (freezedetect's), with FFmpeg's times; the first cudasharpness\n"
    "  element's detect property is that list plus flat (--flat-threshold\n"
    "  0 turns flat off); --detect none leaves blurry segments only.\n"
    "\n"
    "TIMES\n"
    "  Every time is counted from the file's first frame, whatever the\n"
    "  container's timestamps start at (an MPEG-TS's do not start at 0):\n"
    "  the JSON gives that start apart (stream.start_time).\n"
    "\n"
    "DAMAGED FILES\n"
    "  Lost frames (a gap of more than 1.5 frame durations between two\n"
    "  frames), frames the decoder flags corrupted and warnings of the\n"
    "  demuxer, parser or decoder make a file damaged: said in its summary\n"
    "  line, the JSON, the CSV and the report, with the times; segments\n"
    "  over a damaged stretch are flagged unreliable.\n"
    "\n"
    "OUTPUT\n"
    "  Standard output: one summary line per file. Standard error: errors,\n"
    "  and progress (percent, frames per second, ETA) on a terminal unless\n"
    "  --quiet. --csv, --json and --report write files in input order, each\n"
    "  to a temporary file beside it renamed over it when complete; at most\n"
    "  one of them may be standard output. The JSON schema is\n"
    "  docs/reference/scan-report.schema.json (schema_version 3).\n"
    "\n"
    "MERGE\n"
    "  sharpness-scan --merge [--json F] [--csv F] [--report F] PART.json...\n"
    "  writes one JSON, CSV and report from the --json outputs of the N\n"
    "  runs of a --shard I/N scan, files in input-list order, thumbnails\n"
    "  kept: the outputs of one scan of the whole list. The parts must be\n"
    "  written with --json-full (every frame, the thumbnails), come from\n"
    "  scans with the same settings (else the setting and both values are\n"
    "  named) and cover every shard once.\n"
    "\n"
    "COMPARING ENCODES WITH THEIR SOURCE\n"
    "  sharpness-scan --reference SRC [--vmaf-model M] [--compare-metrics L]\n"
    "      [--output-dir D] [--worst N] DIST...\n"
    "  compares each DIST with SRC through cudacompare metrics=vmaf (libvmaf\n"
    "  3.0.0's numbers) and writes D/NAME.vmaf.csv (a row per frame: frame,\n"
    "  pts, vmaf, the features, psnr/ssim if asked), D/NAME.vmaf.json (the\n"
    "  same, and the pooled mean, harmonic mean, min, max, percentiles) and\n"
    "  D/NAME.vmaf.html (the VMAF timeline, the N worst frames side by\n"
    "  side), NAME being DIST's file name. Both files must have the same\n"
    "  frame size (as libvmaf requires: scale the encode first); with\n"
    "  different frame counts the common start is compared and a note\n"
    "  names both counts. A signal keeps the outputs of the inputs\n"
    "  finished and writes none for the one it stopped.\n"
    "\n"
    "SIGNALS\n"
    "  SIGINT (Ctrl-C) or SIGTERM (a batch system's time limit) stops the\n"
    "  scan: the running files end with the frames they had (marked\n"
    "  interrupted), the outputs are written complete for what was scanned,\n"
    "  and the status is 130 (SIGINT) or 143 (SIGTERM). A second signal\n"
    "  exits at once, leaving the outputs as they were before the scan.\n"
    "\n"
    "EXIT STATUS\n"
    "  0    every file scanned (nothing found that an option asks to fail on)\n"
    "  1    --fail-on-blurry and a blurry segment or image was found\n"
    "  2    an input could not be scanned (the others still were), an output\n"
    "       could not be written, a bad command line, a metric that can\n"
    "       score no frame here, or parts --merge cannot merge\n"
    "  3    --fail-on-damaged and a file is damaged\n"
    "  130, 143  interrupted by SIGINT, SIGTERM\n"
    "  A signal's status wins, then 2, then 3, then 1.\n"
    "\n"
    "EXAMPLES\n"
    "  sharpness-scan --report report.html clip.mp4\n"
    "  sharpness-scan --report photos.html ~/Pictures/shoot\n"
    "  sharpness-scan --metric laplacian,tenengrad --csv frames.csv *.mkv\n"
    "  sharpness-scan --fail-on-blurry --quiet --json out.json take*.mov\n"
    "  sharpness-scan --duration 60 --json live.json rtsp://camera/stream\n"
    "  ssh host cat clip.ts | sharpness-scan -\n"
    "  sharpness-scan --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT \\\n"
    "      --input-list archive.txt --json-full \\\n"
    "      --json part-$SLURM_ARRAY_TASK_ID.json\n"
    "  sharpness-scan --merge --json all.json --report all.html part-*.json\n"
    "  sharpness-scan --reference source.mp4 --output-dir vmaf crf*.mp4\n"
    "\n"
    "See docs/reference/sharpness-scan.md.\n";

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

/* --detect: black, freeze, or none alone. */
static gboolean
parse_detect (const gchar * list, guint * detect, GError ** error)
{
  gchar **names = g_strsplit (list, ",", -1);
  gboolean ok = TRUE, none = FALSE;

  *detect = 0;
  for (gchar ** n = names; *n && ok; n++) {
    gchar *name = g_strstrip (*n);

    if (g_str_equal (name, "black"))
      *detect |= SHARPNESS_DETECT_BLACK;
    else if (g_str_equal (name, "freeze"))
      *detect |= SHARPNESS_DETECT_FREEZE;
    else if (g_str_equal (name, "none"))
      none = TRUE;
    else if (g_str_equal (name, "flat")) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--detect %s: flat is no kind of segment: flat frames are always "
          "kept out of the blur rule (--flat-threshold 0 turns that off)",
          list);
      ok = FALSE;
    } else if (*name) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--detect %s: unknown kind '%s' (known: black, freeze, none)",
          list, name);
      ok = FALSE;
    }
  }
  g_strfreev (names);
  if (ok && none && *detect) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--detect %s: none goes alone (it turns black and freeze off)",
        list);
    ok = FALSE;
  } else if (ok && !none && !*detect) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--detect '%s' names no kind: give black, freeze or none", list);
    ok = FALSE;
  }
  return ok;
}

/* The first option given that only a scan takes, or NULL. */
static const gchar *
scan_option_given (void)
{
  if (opt_metrics)
    return "--metric";
  if (!isnan (opt_threshold))
    return "--threshold";
  if (!isnan (opt_relative))
    return "--relative-threshold";
  if (opt_window != UNSET)
    return "--window";
  if (!isnan (opt_min_duration))
    return "--min-duration";
  if (opt_max_gap != UNSET)
    return "--max-gap";
  if (opt_detect)
    return "--detect";
  for (guint i = 0; i < SCAN_CONTENT_N_OPTIONS; i++)
    if (!isnan (opt_content[i]))
      return "a content option (--black-*, --freeze-*, --flat-threshold)";
  if (!isnan (opt_duration))
    return "--duration";
  if (opt_max_frames != UNSET)
    return "--max-frames";
  if (opt_cpu)
    return "--cpu";
  if (opt_jobs != UNSET)
    return "--jobs";
  if (opt_shard)
    return "--shard";
  if (opt_list)
    return "--input-list";
  return NULL;
}

/* Each check names the option, the value given and what it takes. */
static gboolean
check_values (GError ** error)
{
#define BAD(...) G_STMT_START { \
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, \
        __VA_ARGS__); return FALSE; } G_STMT_END
  const gchar *scan_only;
  gint on_stdout = (g_strcmp0 (opt_csv, "-") == 0) +
      (g_strcmp0 (opt_json, "-") == 0) + (g_strcmp0 (opt_report, "-") == 0);

  if (!isnan (opt_threshold) && !(isfinite (opt_threshold) &&
          opt_threshold >= 0))
    BAD ("--threshold %g: must be a number >= 0 (0 turns it off)",
        opt_threshold);
  if (!isnan (opt_relative) && !(opt_relative >= 0 && opt_relative <= 1))
    BAD ("--relative-threshold %g: must be in [0, 1] (0 turns it off)",
        opt_relative);
  if (opt_window != UNSET && (opt_window < 1 || opt_window > MAX_WINDOW))
    BAD ("--window %d: must be an integer from 1 to %d", opt_window,
        MAX_WINDOW);
  if (!isnan (opt_min_duration) && !(isfinite (opt_min_duration) &&
          opt_min_duration >= 0))
    BAD ("--min-duration %g: must be a number of seconds >= 0",
        opt_min_duration);
  if (opt_max_gap != UNSET && opt_max_gap < 0)
    BAD ("--max-gap %d: must be an integer >= 0", opt_max_gap);
  if (opt_jobs != UNSET && (opt_jobs < 1 || opt_jobs > MAX_JOBS))
    BAD ("--jobs %d: must be an integer from 1 to %d", opt_jobs, MAX_JOBS);
  if (!isnan (opt_duration) && !(isfinite (opt_duration) && opt_duration > 0))
    BAD ("--duration %g: must be a number of seconds > 0", opt_duration);
  if (opt_max_frames != UNSET && opt_max_frames < 1)
    BAD ("--max-frames %" G_GINT64_FORMAT ": must be an integer >= 1",
        opt_max_frames);
  if (on_stdout > 1)
    BAD ("--csv, --json and --report: only one of them may write to "
        "standard output ('-'): give the others a file name");
  if (opt_merge && (scan_only = scan_option_given ()))
    BAD ("--merge: %s is an option of the scans that made the parts, "
        "whose settings the merged outputs keep (scan again to change them)",
        scan_only);
  if (opt_merge && !opt_csv && !opt_json && !opt_report)
    BAD ("--merge writes nothing without --json, --csv or --report");
  if (!opt_reference && (opt_vmaf_model || opt_compare_metrics ||
          opt_output_dir || opt_worst != UNSET))
    BAD ("--vmaf-model, --compare-metrics, --output-dir and --worst are "
        "options of --reference");
  if (opt_reference && (opt_merge || opt_csv || opt_json || opt_report ||
          opt_shard || opt_list || opt_json_full))
    BAD ("--reference writes a CSV, a JSON and a report per input in "
        "--output-dir: --csv, --json, --report, --json-full, --merge, "
        "--shard and --input-list do not apply");
  if (opt_worst != UNSET && (opt_worst < 0 || opt_worst > 100))
    BAD ("--worst %d: must be an integer from 0 to 100", opt_worst);
#undef BAD
  return TRUE;
}

gint
scan_options_parse (int *argc, char ***argv, ScanCommandLine * cl)
{
  GOptionContext *ctx;
  GError *err = NULL;
  ScanSettings *s = &cl->settings;

  ctx = g_option_context_new ("- find the blurry, black and frozen "
      "segments of video files");
  g_option_context_set_summary (ctx, "Scores the sharpness of every frame "
      "of each input with the cudasharpness element and reports its blurry "
      "segments, and its black and frozen ones: one summary line per file, "
      "and optionally a CSV of the frames, a JSON of the segments and an "
      "HTML report.");
  g_option_context_set_description (ctx, description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, argc, argv, &err) ||
      !check_values (&err)) {
    g_printerr ("sharpness-scan: %s\nTry 'sharpness-scan --help'.\n",
        err->message);
    g_clear_error (&err);
    g_option_context_free (ctx);
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
    g_clear_error (&err);
    return 2;
  }
  /* Either option given is the whole rule; else the metric's default. */
  if (isnan (opt_threshold) && isnan (opt_relative)) {
    gboolean blur_effect = g_str_equal (sharpness_metric_info[s->metrics[0]].
        nick, "blur-effect");
    s->threshold = blur_effect ? DEFAULT_BLUR_EFFECT_THRESHOLD : 0.0;
    s->relative_threshold = blur_effect ? DEFAULT_BLUR_EFFECT_RELATIVE :
        DEFAULT_RELATIVE;
  } else {
    s->threshold = isnan (opt_threshold) ? 0.0 : opt_threshold;
    s->relative_threshold = isnan (opt_relative) ? 0.0 : opt_relative;
  }
  s->window = opt_window == UNSET ? DEFAULT_WINDOW : opt_window;
  s->min_duration = isnan (opt_min_duration) ? DEFAULT_MIN_DURATION :
      opt_min_duration;
  s->max_gap = opt_max_gap == UNSET ? DEFAULT_MAX_GAP : opt_max_gap;
  s->cpu = opt_cpu;
  s->quiet = opt_quiet;
  if (!parse_detect (opt_detect ? opt_detect : "black,freeze", &s->detect,
          &err)) {
    g_printerr ("sharpness-scan: %s\nTry 'sharpness-scan --help'.\n",
        err->message);
    g_clear_error (&err);
    return 2;
  }
  for (guint i = 0; i < SCAN_CONTENT_N_OPTIONS; i++)
    cl->content[i] = opt_content[i];
  s->json_full = opt_json_full;
  cl->merge = opt_merge;
  cl->reference = opt_reference;
  cl->vmaf_model = opt_vmaf_model;
  cl->compare_metrics = opt_compare_metrics;
  cl->output_dir = opt_output_dir ? opt_output_dir : ".";
  cl->worst = opt_worst == UNSET ? 6 : (guint) opt_worst;
  s->max_duration = isnan (opt_duration) ? 0.0 : opt_duration;
  s->max_frames = opt_max_frames == UNSET ? 0 : (guint64) opt_max_frames;
  cl->jobs = opt_jobs == UNSET ? 0 : (guint) opt_jobs;
  cl->shard_i = 0;
  cl->shard_n = 1;
  if (opt_shard && !sharpness_tool_parse_shard (opt_shard, &cl->shard_i,
          &cl->shard_n)) {
    g_printerr ("sharpness-scan: --shard %s: must be I/N with 0 <= I < N\n",
        opt_shard);
    return 2;
  }
  cl->csv = opt_csv;
  cl->json = opt_json;
  cl->report = opt_report;
  cl->list = opt_list;
  cl->inputs = opt_inputs;
  cl->fail_on_blurry = opt_fail;
  cl->fail_on_damaged = opt_fail_damaged;
  return -1;
}
