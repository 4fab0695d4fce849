/* bench-sharpness: what cudasharpness costs per frame, on natural frames.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * For each resolution and metric, on one ring of natural frames (tiles of
 * scikit-image photographs, see export-tiles.py) this measures:
 *
 *   kernel        CUDA events around sharpness_cuda_score_device() on a
 *                 frame already in device memory: the device's share.
 *   cuda-memory   the element on memory:CUDAMemory (frames uploaded once).
 *   pinned        the element on system-memory NV12 from the pinned pool it
 *                 proposes upstream (asked for with an allocation query, as
 *                 an upstream element would; the ring is acquired from it).
 *   pageable      the element on ordinary malloc'ed NV12 buffers.
 *   cpu           the element with backend=cpu, pageable NV12.
 * and once per resolution:
 *   videoanalyse  GStreamer's videoanalyse (videosignal) on I420.
 *   h2d-pinned, h2d-pageable
 *                 host-to-device copy of the luma plane (CUDA events): the
 *                 floor under any system-memory GPU path.
 *
 * Element times come from pad probes: the sink-pad probe stamps a buffer's
 * arrival, the src-pad probe its departure (the element is in place and
 * pushes from the same thread), so they cover exactly the element's work.
 * Medians over many frames after a warm-up; the ring is larger than the
 * GPU's L2 cache so repeated frames do not measure the cache.
 *
 *   bench-sharpness [--tiles FILE] [--resolutions 720p,1080p,4K,8K]
 *       [--metrics nick,...] [--seconds S] [--cpu-seconds S]
 *       [--cpu-frame-limit S] [--max-frames N] [--device N]
 *       [--csv FILE] [--markdown FILE] [--element-props "tiles=8x4 ..."]
 *
 * Many streams per GPU:
 *
 *   bench-sharpness --streams N[,N...]|all [--metrics nick,...]
 *       [--streams-seconds S] [--streams-warmup S] [--streams-grace S]
 *       [--streams-ring K] [--compare-no-service] [--device N]
 *       [--csv FILE] [--markdown FILE]
 *
 *   runs, for each N (all: 1,8,32,64,128,256) and metric (default
 *   laplacian,tenengrad,bliinds2), N independent pipelines
 *   "appsrc ! cudasharpness ! fakesink" in this one process, each fed as
 *   fast as it takes frames (from appsrc's need-data, in its own streaming
 *   thread) from its own ring of K natural 1080p NV12 frames already in
 *   CUDA memory.  After a warm-up, frames leaving the elements are counted
 *   for S seconds (aggregate frames/s) and each frame's time in its element
 *   is sampled (sink-pad to src-pad probes: p50, p99); then every source
 *   sends EOS.  Every frame pushed must come out with a GstSharpnessMeta of
 *   the metric.  A run whose streams have not all drained grace seconds
 *   after the stop is reported incomplete, so the benchmark ends in bounded
 *   time even when throughput collapses.  --compare-no-service runs each
 *   case again with SHARPNESS_CUDA_NO_SERVICE=1 (each element on its own
 *   stream, the path before the scoring service).
 *
 * One property's cost, resolved against run-to-run noise:
 *
 *   bench-sharpness --alternate PROP=A,B [--alternate-rounds R]
 *       [--alternate-frames K] [--resolutions ...] [--metrics nick,...]
 *       [--element-props ...] [--csv FILE] [--markdown FILE]
 *
 *   runs, for each metric (default: the classical ones), one pipeline
 *   "appsrc ! cudasharpness ! fakesink" on the ring in CUDA memory and
 *   switches PROP between A and B in R rounds (ABBA order) of one
 *   segment each: K frames measured after a few left out, nothing in
 *   flight at a switch.  Both settings then share the process, the
 *   pipeline, its threads and the machine's state of the moment, which
 *   separate runs do not (they differ by up to a fifth).  Reported: each
 *   setting's median over its frames, and B over A per round.
 *
 * Needs the plugin on GST_PLUGIN_PATH and a CUDA device.
 */
#include <errno.h>

#include "bench-sharpness.h"

Options opt;
GstCudaContext *cuda_ctx;
FILE *csv;
GString *markdown;

static gboolean
parse_options (int *argc, char ***argv)
{
  gchar *resolutions = NULL, *metrics = NULL, *streams = NULL;
  gchar *alternate = NULL;
  GOptionEntry entries[] = {
    {"tiles", 0, 0, G_OPTION_ARG_FILENAME, &opt.tiles_path,
        "Natural tiles from export-tiles.py", "FILE"},
    {"resolutions", 0, 0, G_OPTION_ARG_STRING, &resolutions,
        "Comma-separated subset of 720p,1080p,4K,8K", "LIST"},
    {"metrics", 0, 0, G_OPTION_ARG_STRING, &metrics,
        "Comma-separated metric nicks (default: all)", "LIST"},
    {"seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt.seconds,
        "Time per GPU measurement (default 0.3)", "S"},
    {"cpu-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt.cpu_seconds,
        "Time per CPU/videoanalyse measurement (default 0.6)", "S"},
    {"cpu-frame-limit", 0, 0, G_OPTION_ARG_DOUBLE, &opt.cpu_frame_limit,
          "Skip CPU runs whose frames would take longer, extrapolating from "
          "the previous resolution (default 2)", "S"},
    {"max-frames", 0, 0, G_OPTION_ARG_INT, &opt.max_frames,
        "Frames per measurement at most (default 5000)", "N"},
    {"device", 0, 0, G_OPTION_ARG_INT, &opt.device, "CUDA device", "N"},
    {"csv", 0, 0, G_OPTION_ARG_FILENAME, &opt.csv_path,
        "CSV output (default bench-sharpness.csv)", "FILE"},
    {"markdown", 0, 0, G_OPTION_ARG_FILENAME, &opt.markdown_path,
        "Markdown output (also printed)", "FILE"},
    {"streams", 0, 0, G_OPTION_ARG_STRING, &streams,
          "Many-streams mode: N pipelines in one process for each N of the "
          "comma-separated list (all: 1,8,32,64,128,256)", "LIST"},
    {"streams-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt.streams_seconds,
        "Measured time per streams run (default 2)", "S"},
    {"streams-warmup", 0, 0, G_OPTION_ARG_DOUBLE, &opt.streams_warmup,
        "Time before measuring, per streams run (default 0.5)", "S"},
    {"streams-grace", 0, 0, G_OPTION_ARG_DOUBLE, &opt.streams_grace,
          "Time the streams have to drain after the stop before the run is "
          "reported incomplete (default 20)", "S"},
    {"streams-ring", 0, 0, G_OPTION_ARG_INT, &opt.streams_ring,
        "Frames in each stream's ring (default 4)", "K"},
    {"element-props", 0, 0, G_OPTION_ARG_STRING, &opt.element_props,
        "Extra cudasharpness properties for every element run, e.g. "
          "\"tiles=8x4\"", "PROPS"},
    {"alternate", 0, 0, G_OPTION_ARG_STRING, &alternate,
          "Alternating mode: switch a cudasharpness property between two "
          "values, e.g. detect=0,black+freeze", "PROP=A,B"},
    {"alternate-rounds", 0, 0, G_OPTION_ARG_INT, &opt.alt_rounds,
        "Alternating mode: rounds (default 40)", "R"},
    {"alternate-frames", 0, 0, G_OPTION_ARG_INT, &opt.alt_frames,
        "Alternating mode: measured frames a segment (default 300)", "K"},
    {"compare-no-service", 0, 0, G_OPTION_ARG_NONE, &opt.compare_no_service,
          "Streams mode: run each case again with SHARPNESS_CUDA_NO_SERVICE=1",
        NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- cudasharpness benchmark");
  GError *err = NULL;
  gboolean ok;

  opt.seconds = 0.3;
  opt.cpu_seconds = 0.6;
  opt.cpu_frame_limit = 2.0;
  opt.max_frames = 5000;
  opt.streams_seconds = 2.0;
  opt.streams_warmup = 0.5;
  opt.streams_grace = 20.0;
  opt.streams_ring = 4;
  opt.alt_rounds = 40;
  opt.alt_frames = 300;
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  ok = g_option_context_parse (ctx, argc, argv, &err);
  if (!ok)
    g_printerr ("%s\n", err->message);
  g_clear_error (&err);
  g_option_context_free (ctx);

  if (!opt.tiles_path)
    opt.tiles_path = g_strdup (BENCH_TILES);
  if (!opt.element_props)
    opt.element_props = g_strdup ("");
  if (!opt.csv_path)
    opt.csv_path = g_strdup (streams ? "bench-sharpness-streams.csv" :
        alternate ? "bench-sharpness-alternate.csv" : "bench-sharpness.csv");
  if (alternate && streams) {
    g_printerr ("--alternate and --streams are separate modes\n");
    ok = FALSE;
  } else if (alternate) {
    gchar **kv = g_strsplit (alternate, "=", 2);
    gchar **ab = kv[0] && kv[1] ? g_strsplit (kv[1], ",", -1) : NULL;

    if (!ab || !*kv[0] || g_strv_length (ab) != 2) {
      g_printerr ("bad --alternate \"%s\" (PROP=A,B)\n", alternate);
      ok = FALSE;
    } else {
      opt.alt_prop = g_strdup (kv[0]);
      opt.alt_values[0] = g_strdup (ab[0]);
      opt.alt_values[1] = g_strdup (ab[1]);
    }
    g_strfreev (ab);
    g_strfreev (kv);
    if (!resolutions)
      resolutions = g_strdup ("1080p");
    if (!metrics)
      metrics = g_strdup ("variance,roberts,tenengrad,laplacian,smd,smd2,"
          "maxmin,entropy");
  }
  opt.resolutions = g_strsplit (resolutions ? resolutions :
      "720p,1080p,4K,8K", ",", -1);
  /* The streams mode's own default: a cheap, a mid and a heavy metric. */
  if (!metrics && streams)
    metrics = g_strdup ("laplacian,tenengrad,bliinds2");
  opt.metrics = metrics ? g_strsplit (metrics, ",", -1) : NULL;
  if (streams) {
    gchar **counts = g_strsplit (g_strcmp0 (streams, "all") ?
        streams : "1,8,32,64,128,256", ",", -1);
    guint i;

    opt.streams = g_new0 (guint, g_strv_length (counts));
    for (i = 0; counts[i]; i++) {
      gchar *end;
      guint64 n = g_ascii_strtoull (counts[i], &end, 10);

      if (end == counts[i] || *end || n < 1 || n > 4096) {
        g_printerr ("bad stream count \"%s\" (1 to 4096)\n", counts[i]);
        ok = FALSE;
        break;
      }
      opt.streams[opt.n_streams++] = (guint) n;
    }
    g_strfreev (counts);
  }
  g_free (resolutions);
  g_free (metrics);
  g_free (streams);
  g_free (alternate);
  return ok && opt.alt_rounds > 0 && opt.alt_frames > 0 &&
      opt.max_frames > 0 && opt.seconds > 0 && opt.cpu_seconds > 0
      && opt.cpu_frame_limit > 0 && opt.streams_seconds > 0 &&
      opt.streams_warmup >= 0 && opt.streams_grace > 0 &&
      opt.streams_ring > 0;
}

/* The metrics of --metrics (all by default) into @metrics; their count. */
static guint
select_metrics (SharpnessMetric metrics[SHARPNESS_METRIC_COUNT])
{
  guint n = 0, m;

  for (m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    if (!opt.metrics ||
        g_strv_contains ((const gchar * const *) opt.metrics,
            sharpness_metric_info[m].nick))
      metrics[n++] = (SharpnessMetric) m;
  }
  return n;
}

/* The CUDA context every pipeline shares, and the device's name; 0, or the
 * exit status (77: no CUDA device, the skip status). */
static int
open_cuda (char *device_name, gsize size)
{
  CUdevice dev;

  if (!gst_cuda_load_library () || CuInit (0) != CUDA_SUCCESS) {
    g_printerr ("no CUDA driver\n");
    return 77;
  }
  gst_cuda_memory_init_once ();
  cuda_ctx = gst_cuda_context_new (opt.device);
  if (!cuda_ctx) {
    g_printerr ("no CUDA device %d\n", opt.device);
    return 77;
  }
  if (CuDeviceGet (&dev, opt.device) == CUDA_SUCCESS)
    CuDeviceGetName (device_name, (int) size, dev);
  return 0;
}

/* Opens the CSV and starts the markdown with the device, the date and the
 * frames; @what ends its first line.  FALSE when the CSV cannot be
 * written. */
static gboolean
outputs_open (const char *device_name, const Tiles * tiles, const gchar * what)
{
  GDateTime *now;
  gchar *date;

  csv = fopen (opt.csv_path, "w");
  if (!csv) {
    g_printerr ("cannot write %s: %s\n", opt.csv_path, g_strerror (errno));
    return FALSE;
  }
  now = g_date_time_new_now_utc ();
  date = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  g_date_time_unref (now);
  markdown = g_string_new (NULL);
  g_string_append_printf (markdown, "Device: %s; %s; natural frames from %d "
      "photograph tiles%s.\n", device_name, date, tiles->count, what);
  g_free (date);
  return TRUE;
}

/* Closes the CSV, prints the markdown and writes it to --markdown. */
static void
outputs_close (void)
{
  fclose (csv);
  g_print ("%s", markdown->str);
  if (opt.markdown_path &&
      !g_file_set_contents (opt.markdown_path, markdown->str, -1, NULL))
    g_printerr ("cannot write %s\n", opt.markdown_path);
  g_string_free (markdown, TRUE);
}

/* The per-frame modes of one metric at one resolution into @rr, the CPU
 * run skipped where @cpu_ns_per_pixel (from the previous resolution)
 * predicts a frame beyond --cpu-frame-limit. */
static void
run_metric (const Ring * ring, SharpnessCuda * sc, cudaStream_t stream,
    SharpnessMetric metric, GstBuffer ** cuda_bufs, GstBuffer ** nv12_bufs,
    const gchar * cuda_caps, const gchar * nv12_caps,
    gdouble * cpu_ns_per_pixel, Result rr[MODE_COUNT])
{
  const Resolution *res = ring->res;
  const gchar *nick = sharpness_metric_info[metric].nick;
  gchar *gpu = g_strdup_printf ("cudasharpness name=el backend=cuda "
      "metric=%s %s", nick, opt.element_props);
  gchar *cpu = g_strdup_printf ("cudasharpness name=el backend=cpu "
      "metric=%s %s", nick, opt.element_props);
  gdouble pixels = (gdouble) res->width * res->height, cpu_estimate;

  g_printerr ("%s %s\n", res->name, nick);
  gst_cuda_context_push (cuda_ctx);
  run_kernel (sc, stream, metric, ring, cuda_bufs, &rr[MODE_KERNEL]);
  gst_cuda_context_pop (NULL);
  run_element (ring, cuda_bufs, cuda_caps, gpu, opt.seconds,
      GPU_WARMUP, GPU_MIN_SAMPLES, &rr[MODE_CUDA_MEMORY]);
  run_element (ring, NULL, nv12_caps, gpu, opt.seconds, GPU_WARMUP,
      GPU_MIN_SAMPLES, &rr[MODE_PINNED]);
  run_element (ring, nv12_bufs, nv12_caps, gpu, opt.seconds, GPU_WARMUP,
      GPU_MIN_SAMPLES, &rr[MODE_PAGEABLE]);
  /* The perceptual metrics take seconds per large frame on the CPU. */
  cpu_estimate = *cpu_ns_per_pixel * pixels;
  if (cpu_estimate > opt.cpu_frame_limit * 1e9) {
    result_fail (&rr[MODE_CPU], "skipped: about %.0f s per frame, "
        "extrapolated from the previous size", cpu_estimate / 1e9);
  } else {
    run_element (ring, nv12_bufs, nv12_caps, cpu, opt.cpu_seconds, 1, 1,
        &rr[MODE_CPU]);
    if (!rr[MODE_CPU].failed)
      *cpu_ns_per_pixel = (gdouble) rr[MODE_CPU].median / pixels;
  }
  for (Mode mode = MODE_KERNEL; mode <= MODE_CPU; mode++)
    emit_csv (res, nick, mode, &rr[mode]);
  g_free (gpu);
  g_free (cpu);
}

/* One resolution of the per-frame mode: the copy floor and videoanalyse
 * once, then every metric; its CSV rows and markdown table. */
static void
run_resolution (const Resolution * res, const Tiles * tiles,
    SharpnessCuda * sc, cudaStream_t stream, const SharpnessMetric * metrics,
    guint n_metrics, gdouble * cpu_ns_per_pixel)
{
  Result (*results)[MODE_COUNT];
  Result shared[MODE_COUNT];
  GstBuffer **cuda_bufs, **nv12_bufs, **i420_bufs;
  gchar *nv12_caps, *cuda_caps, *i420_caps;
  Ring ring;
  guint m;

  ring_init (&ring, tiles, res);
  g_printerr ("%s: ring of %u natural frames\n", res->name, ring.n);

  nv12_caps = g_strdup_printf ("video/x-raw,format=NV12,width=%d,height=%d,"
      "framerate=30/1", res->width, res->height);
  cuda_caps = g_strdup_printf ("video/x-raw(memory:CUDAMemory),format=NV12,"
      "width=%d,height=%d,framerate=30/1", res->width, res->height);
  i420_caps = g_strdup_printf ("video/x-raw,format=I420,width=%d,height=%d,"
      "framerate=30/1", res->width, res->height);
  nv12_bufs = make_sysmem_buffers (&ring, &ring.nv12);
  i420_bufs = make_sysmem_buffers (&ring, &ring.i420);
  cuda_bufs = make_cuda_buffers (&ring);

  memset (shared, 0, sizeof (shared));
  gst_cuda_context_push (cuda_ctx);
  run_copy_floor (stream, &ring, &shared[MODE_H2D_PINNED],
      &shared[MODE_H2D_PAGEABLE]);
  gst_cuda_context_pop (NULL);
  emit_csv (res, "-", MODE_H2D_PINNED, &shared[MODE_H2D_PINNED]);
  emit_csv (res, "-", MODE_H2D_PAGEABLE, &shared[MODE_H2D_PAGEABLE]);
  run_element (&ring, i420_bufs, i420_caps, "videoanalyse name=el",
      opt.cpu_seconds, 1, 1, &shared[MODE_VIDEOANALYSE]);
  emit_csv (res, "-", MODE_VIDEOANALYSE, &shared[MODE_VIDEOANALYSE]);

  results = g_malloc0_n (n_metrics, sizeof (*results));
  for (m = 0; m < n_metrics; m++)
    run_metric (&ring, sc, stream, metrics[m], cuda_bufs, nv12_bufs,
        cuda_caps, nv12_caps, &cpu_ns_per_pixel[metrics[m]], results[m]);
  emit_markdown_resolution (res, results, shared, n_metrics, metrics);

  g_free (results);
  free_buffers (cuda_bufs, ring.n);
  free_buffers (nv12_bufs, ring.n);
  free_buffers (i420_bufs, ring.n);
  g_free (nv12_caps);
  g_free (cuda_caps);
  g_free (i420_caps);
  ring_clear (&ring);
}

/* The per-frame mode: every resolution of --resolutions, the CUDA library
 * on a stream of its own beside the elements. */
static void
run_per_frame_mode (const Tiles * tiles, const SharpnessMetric * metrics,
    guint n_metrics)
{
  gdouble cpu_ns_per_pixel[SHARPNESS_METRIC_COUNT] = { 0, };
  SharpnessCuda *sc;
  cudaStream_t stream;
  guint r;

  fprintf (csv, "resolution,width,height,metric,mode,frames,median_ns,p10_ns,"
      "p90_ns,fps,note\n");
  if (!gst_cuda_context_push (cuda_ctx))
    g_error ("cannot push the CUDA context");
  CHECK_CUDA (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  if (sharpness_cuda_new (stream, &sc) != SHARPNESS_OK)
    g_error ("cannot create the CUDA backend");
  gst_cuda_context_pop (NULL);

  for (r = 0; r < N_RESOLUTIONS; r++) {
    if (g_strv_contains ((const gchar * const *) opt.resolutions,
            all_resolutions[r].name))
      run_resolution (&all_resolutions[r], tiles, sc, stream, metrics,
          n_metrics, cpu_ns_per_pixel);
  }

  gst_cuda_context_push (cuda_ctx);
  sharpness_cuda_free (sc);
  CHECK_CUDA (cudaStreamDestroy (stream));
  gst_cuda_context_pop (NULL);
}

/* 0; 1 when a --streams or --alternate case lost frames, did not drain in
 * time or failed; 2 on bad arguments or outputs; 77 without a device. */
int
main (int argc, char **argv)
{
  SharpnessMetric metrics[SHARPNESS_METRIC_COUNT];
  GValue alt[2] = { G_VALUE_INIT, G_VALUE_INIT };
  char device_name[128] = "";
  gboolean complete = TRUE;
  guint n_metrics, i;
  Tiles tiles;
  int status;

  if (!parse_options (&argc, &argv))
    return 2;
  gst_init (&argc, &argv);

  n_metrics = select_metrics (metrics);
  if (n_metrics == 0) {
    g_printerr ("no known metric selected\n");
    return 2;
  }
  if (!tiles_load (&tiles, opt.tiles_path)) {
    g_printerr ("cannot read the natural tiles %s (make them with "
        "bench/cudasharpness/export-tiles.py)\n", opt.tiles_path);
    return 2;
  }
  status = open_cuda (device_name, sizeof (device_name));
  if (status)
    return status;
  if (!gst_element_factory_find ("cudasharpness")) {
    g_printerr ("cudasharpness not found: set GST_PLUGIN_PATH\n");
    return 2;
  }
  if (opt.alt_prop && !alt_values (alt))
    return 2;

  if (!outputs_open (device_name, &tiles, opt.n_streams || opt.alt_prop ?
          "" : "; medians of per-frame times (us)"))
    return 2;
  if (opt.n_streams)
    complete = run_streams_mode (&tiles, metrics, n_metrics);
  else if (opt.alt_prop)
    complete = run_alternate_mode (&tiles, metrics, n_metrics, alt);
  else
    run_per_frame_mode (&tiles, metrics, n_metrics);
  outputs_close ();

  for (i = 0; i < G_N_ELEMENTS (alt); i++)
    if (G_IS_VALUE (&alt[i]))
      g_value_unset (&alt[i]);
  g_free (tiles.data);
  gst_object_unref (cuda_ctx);
  return complete ? 0 : 1;
}
