/* sharpness-scan --merge: one JSON, CSV and report from the JSON parts of a
 * sharded scan (--shard I/N --json-full --json part-I.json).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each part is read back into the files it describes (ScanFile, frames,
 * segments, thumbnails), and those are written by the writers of a scan, in
 * input-list order: the merged outputs are what one scan of every input
 * would have written (numbers a merge reads back are printed exactly:
 * times to the nanosecond, per-frame values with every bit).  The parts
 * must come from scans with the same settings and cover every shard once.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <signal.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "scan-scheduler.h"

#define MERGE_ERROR (g_quark_from_static_string ("sharpness-scan-merge"))

typedef struct
{
  const gchar *path;
  guint shard_i, shard_n, inputs;
  gint signal;
  guint n_files;
  JsonParser *parser;
} Part;

/* An input a part's signal left unscanned, with its place in the list. */
typedef struct
{
  guint index;
  gchar *input;
} Unscanned;

/* ---- reading numbers ------------------------------------------------- */

static gboolean
is_null (JsonObject * o, const gchar * name)
{
  JsonNode *n = json_object_get_member (o, name);
  return !n || JSON_NODE_HOLDS_NULL (n);
}

static gdouble
get_double (JsonObject * o, const gchar * name)
{
  return is_null (o, name) ? NAN : json_object_get_double_member (o, name);
}

static gint64
get_int (JsonObject * o, const gchar * name, gint64 fallback)
{
  return is_null (o, name) ? fallback : json_object_get_int_member (o, name);
}

static const gchar *
get_string (JsonObject * o, const gchar * name)
{
  return is_null (o, name) ? NULL : json_object_get_string_member (o, name);
}

static gboolean
get_bool (JsonObject * o, const gchar * name)
{
  return !is_null (o, name) && json_object_get_boolean_member (o, name);
}

/* Seconds printed to the nanosecond, back to nanoseconds. */
static gint64
ns_of (gdouble seconds)
{
  return (gint64) llround (seconds * 1e9);
}

/* A time counted from the first frame, back to stream time. */
static guint64
stream_time (JsonObject * o, const gchar * name, guint64 start)
{
  if (is_null (o, name) || start == GST_CLOCK_TIME_NONE)
    return GST_CLOCK_TIME_NONE;
  return start + ns_of (json_object_get_double_member (o, name));
}

static guint64
duration_ns (JsonObject * o, const gchar * name)
{
  return is_null (o, name) ? GST_CLOCK_TIME_NONE :
      (guint64) ns_of (json_object_get_double_member (o, name));
}

static gdouble
array_double (JsonArray * a, guint i)
{
  JsonNode *n = json_array_get_element (a, i);
  return JSON_NODE_HOLDS_NULL (n) ? NAN : json_node_get_double (n);
}

/* ---- settings -------------------------------------------------------- */

/* @n as the options spell it: 0.55, not 0.55000000000000004. */
static gchar *
value_text (JsonNode * n)
{
  if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) ==
      G_TYPE_DOUBLE)
    return g_strdup_printf ("%.10g", json_node_get_double (n));
  return json_to_string (n, FALSE);
}

/* Every member of @ref equal in @other (and no other member): else
 * @error names the setting and both values. */
static gboolean
same_settings (JsonObject * ref, const gchar * ref_path, JsonObject * other,
    const gchar * path, GError ** error)
{
  GList *names = json_object_get_members (other);
  gboolean ok = TRUE;

  for (GList * l = names; l && ok; l = l->next)
    if (!json_object_has_member (ref, l->data)) {
      g_set_error (error, MERGE_ERROR, 0, "setting '%s' is in %s, not in %s",
          (gchar *) l->data, path, ref_path);
      ok = FALSE;
    }
  g_list_free (names);
  names = json_object_get_members (ref);
  for (GList * l = names; l && ok; l = l->next) {
    JsonNode *a = json_object_get_member (ref, l->data);
    JsonNode *b = json_object_get_member (other, l->data);

    if (b && json_node_equal (a, b))
      continue;
    {
      gchar *va = value_text (a);
      gchar *vb = b ? value_text (b) : g_strdup ("nothing");

      g_set_error (error, MERGE_ERROR, 0, "setting '%s' differs: %s in %s, "
          "%s in %s (merge parts of scans made with the same options)",
          (gchar *) l->data, va, ref_path, vb, path);
      g_free (va);
      g_free (vb);
    }
    ok = FALSE;
  }
  g_list_free (names);
  return ok;
}

static gboolean
settings_from_json (JsonObject * o, const gchar * path, ScanSettings * s,
    GError ** error)
{
  JsonArray *metrics = json_object_get_array_member (o, "metrics");
  const gchar *detect = get_string (o, "detect");

  s->n_metrics = 0;
  for (guint m = 0; metrics && m < json_array_get_length (metrics) &&
      m < SCAN_MAX_METRICS; m++) {
    const gchar *nick = json_array_get_string_element (metrics, m);
    gint id = sharpness_metric_from_nick (nick);

    if (id < 0) {
      g_set_error (error, MERGE_ERROR, 0, "%s: metric '%s' is unknown to "
          "this build of sharpness-scan (merge with the build that scanned)",
          path, nick);
      return FALSE;
    }
    s->metrics[s->n_metrics++] = id;
  }
  if (s->n_metrics == 0) {
    g_set_error (error, MERGE_ERROR, 0, "%s: its settings name no metric",
        path);
    return FALSE;
  }
  s->threshold = get_double (o, "threshold");
  s->relative_threshold = get_double (o, "relative_threshold");
  s->window = get_int (o, "window", 25);
  s->min_duration = get_double (o, "min_duration");
  s->max_gap = get_int (o, "max_gap", 2);
  s->cpu = g_strcmp0 (get_string (o, "backend"), "cpu") == 0;
  s->detect = 0;
  if (detect && strstr (detect, "black"))
    s->detect |= SHARPNESS_DETECT_BLACK;
  if (detect && strstr (detect, "freeze"))
    s->detect |= SHARPNESS_DETECT_FREEZE;
  if (get_bool (o, "flat"))
    s->detect |= SHARPNESS_DETECT_FLAT;
  s->black_pixel_threshold = get_double (o, "black_pixel_threshold");
  s->black_ratio = get_double (o, "black_ratio");
  s->black_min_duration = duration_ns (o, "black_min_duration");
  s->freeze_noise = get_double (o, "freeze_noise");
  s->freeze_min_duration = duration_ns (o, "freeze_min_duration");
  s->flat_threshold = get_double (o, "flat_threshold");
  s->max_duration = is_null (o, "max_duration") ? 0.0 :
      get_double (o, "max_duration");
  s->max_frames = get_int (o, "max_frames", 0);
  return TRUE;
}

/* ---- files ----------------------------------------------------------- */

static gchar *
dup_string (JsonObject * o, const gchar * name)
{
  return g_strdup (get_string (o, name));
}

static void
read_stream (ScanFile * f, JsonObject * st)
{
  JsonArray *fraction = is_null (st, "framerate_fraction") ? NULL :
      json_object_get_array_member (st, "framerate_fraction");
  JsonArray *sizes = json_object_get_array_member (st, "sizes");

  f->width = get_int (st, "width", 0);
  f->height = get_int (st, "height", 0);
  if (fraction && json_array_get_length (fraction) == 2) {
    f->fps_n = json_array_get_int_element (fraction, 0);
    f->fps_d = json_array_get_int_element (fraction, 1);
  }
  f->duration = duration_ns (st, "duration");
  f->start_time = duration_ns (st, "start_time");
  f->codec = dup_string (st, "codec");
  f->decoder = dup_string (st, "decoder");
  f->format = dup_string (st, "format");
  f->decoded_format = dup_string (st, "decoded_format");
  f->cuda_memory = g_strcmp0 (get_string (st, "memory"), "cuda") == 0;
  f->interlaced = get_bool (st, "interlaced");
  f->orientation = dup_string (st, "orientation");
  for (guint i = 0; sizes && i < json_array_get_length (sizes); i++) {
    JsonObject *o = json_array_get_object_element (sizes, i);
    ScanSize sz = { get_int (o, "frame", 0), get_int (o, "width", 0),
      get_int (o, "height", 0)
    };
    g_array_append_val (f->sizes, sz);
  }
  f->video_streams = get_int (st, "video_streams", 1);
}

static gboolean
read_segment (ScanFile * f, JsonObject * o)
{
  const gchar *kind = get_string (o, "kind");
  ScanSegment ss = { 0, };

  for (ss.kind = 0; ss.kind < SHARPNESS_EVENT_N_KINDS; ss.kind++)
    if (g_strcmp0 (kind, sharpness_event_kind_name (ss.kind)) == 0)
      break;
  if (ss.kind == SHARPNESS_EVENT_N_KINDS)
    return FALSE;
  ss.start = stream_time (o, "start", f->start_time);
  ss.end = stream_time (o, "end", f->start_time);
  ss.duration = duration_ns (o, "duration");
  ss.start_frame = get_int (o, "start_frame", 0);
  ss.end_frame = get_int (o, "end_frame", 0);
  ss.kind_frames = get_int (o, "kind_frames", 0);
  ss.scored_frames = get_int (o, "scored_frames", 0);
  ss.min = get_double (o, "min_score");
  ss.mean = get_double (o, "mean_score");
  ss.max = get_double (o, "max_score");
  ss.worst_frame = get_int (o, "worst_frame", 0);
  ss.worst_score = get_double (o, "worst_score");
  ss.thumb_frame = get_int (o, "thumbnail_frame", -1);
  ss.damaged = get_bool (o, "damaged");
  ss.jpeg_base64 = dup_string (o, "thumbnail");
  ss.crop_base64 = dup_string (o, "crop");
  g_array_append_val (f->segments, ss);
  return TRUE;
}

static void
read_damage (ScanFile * f, JsonObject * o)
{
  JsonArray *stretches = json_object_get_array_member (o, "stretches");

  f->lost_frames = get_int (o, "lost_frames", 0);
  f->corrupted_frames = get_int (o, "corrupted_frames", 0);
  f->decoding_warnings = get_int (o, "decoding_warnings", 0);
  for (guint i = 0; stretches && i < json_array_get_length (stretches); i++) {
    JsonObject *s = json_array_get_object_element (stretches, i);
    ScanDamage d = {
      .first_frame = get_int (s, "first_frame", 0),
      .last_frame = get_int (s, "last_frame", 0),
      .start = stream_time (s, "start", f->start_time),
      .end = stream_time (s, "end", f->start_time),
      .lost_frames = get_int (s, "lost_frames", 0),
      .corrupted_frames = get_int (s, "corrupted_frames", 0),
    };
    g_array_append_val (f->damage, d);
  }
}

/* The frames (--json-full's columns); FALSE when they are missing or do
 * not add up. */
static gboolean
read_frames (ScanFile * f, JsonObject * o, guint64 n)
{
  const ScanSettings *s = f->settings;
  JsonObject *scores;
  JsonArray *time, *blurry, *state, *black, *mafd, *structure, *damaged;
  JsonArray *cols[SCAN_MAX_METRICS];

  if (!o)
    return FALSE;
  time = json_object_get_array_member (o, "time");
  blurry = json_object_get_array_member (o, "blurry");
  state = json_object_get_array_member (o, "state");
  black = json_object_get_array_member (o, "black_ratio");
  mafd = json_object_get_array_member (o, "freeze_mafd");
  structure = json_object_get_array_member (o, "structure");
  damaged = json_object_get_array_member (o, "damaged");
  scores = json_object_get_object_member (o, "scores");
  if (!time || !blurry || !state || !black || !mafd || !structure ||
      !damaged || !scores)
    return FALSE;
  for (guint m = 0; m < s->n_metrics; m++) {
    cols[m] = json_object_get_array_member (scores,
        sharpness_metric_info[s->metrics[m]].nick);
    if (!cols[m] || json_array_get_length (cols[m]) != n)
      return FALSE;
  }
  if (json_array_get_length (time) != n || json_array_get_length (blurry) !=
      n || json_array_get_length (state) != n ||
      json_array_get_length (black) != n || json_array_get_length (mafd) != n
      || json_array_get_length (structure) != n ||
      json_array_get_length (damaged) != n)
    return FALSE;

  for (guint64 i = 0; i < n; i++) {
    JsonNode *t = json_array_get_element (time, i);
    const gchar *name = JSON_NODE_HOLDS_NULL (json_array_get_element (state,
            i)) ? NULL : json_array_get_string_element (state, i);
    ScanFrame fr = {
      .pts = JSON_NODE_HOLDS_NULL (t) || f->start_time == GST_CLOCK_TIME_NONE
          ? GST_CLOCK_TIME_NONE : f->start_time +
          ns_of (json_node_get_double (t)),
      .blurry = json_array_get_int_element (blurry, i) != 0,
      .damaged = json_array_get_int_element (damaged, i) != 0,
      .state = SCAN_STATE_NONE,
      .black_ratio = array_double (black, i),
      .freeze_mafd = array_double (mafd, i),
      .structure = array_double (structure, i),
    };

    for (guint k = 0; name && k < SHARPNESS_CONTENT_N_STATES; k++)
      if (g_str_equal (name, sharpness_content_state_name (k)))
        fr.state = k;
    g_array_append_val (f->frames, fr);
    for (guint m = 0; m < s->n_metrics; m++) {
      gdouble v = array_double (cols[m], i);
      g_array_append_val (f->scores, v);
    }
  }
  return TRUE;
}

static ScanJob *
read_file (JsonObject * o, const ScanSettings * s, const Part * p,
    GError ** error)
{
  ScanJob *job;
  ScanFile *f;
  JsonArray *segments = json_object_get_array_member (o, "segments");
  JsonArray *notes = json_object_get_array_member (o, "notes");
  JsonObject *image = is_null (o, "image") ? NULL :
      json_object_get_object_member (o, "image");
  guint64 n = 0;
  const gchar *stop = get_string (o, "stopped_by");

  if (!get_string (o, "input") || is_null (o, "index")) {
    g_set_error (error, MERGE_ERROR, 0, "%s: a file without input or index:"
        " not a sharpness-scan JSON of this version", p->path);
    return NULL;
  }
  job = scan_job_new (get_int (o, "index", 0), get_string (o, "input"),
      get_string (o, "uri"), s);
  f = &job->file;
  job->finished = TRUE;
  f->kind = g_strcmp0 (get_string (o, "kind"), "image") == 0 ?
      SCAN_KIND_IMAGE : SCAN_KIND_VIDEO;
  if (!is_null (o, "stream")) {
    JsonObject *st = json_object_get_object_member (o, "stream");
    read_stream (f, st);
    n = get_int (st, "frames", 0);
  }
  if (!read_frames (f, is_null (o, "frames") ? NULL :
          json_object_get_object_member (o, "frames"), n)) {
    g_set_error (error, MERGE_ERROR, 0, "%s: no frames for %s: --merge "
        "needs parts written with --json-full (scan shard %u/%u again with "
        "it)", p->path, f->input, p->shard_i, p->shard_n);
    scan_job_free (job);
    return NULL;
  }
  for (guint i = 0; segments && i < json_array_get_length (segments); i++)
    if (!read_segment (f, json_array_get_object_element (segments, i))) {
      g_set_error (error, MERGE_ERROR, 0, "%s: %s: a segment of unknown "
          "kind", p->path, f->input);
      scan_job_free (job);
      return NULL;
    }
  if (image)
    f->image_base64 = dup_string (image, "thumbnail");
  if (!is_null (o, "summary"))
    f->elapsed = get_double (json_object_get_object_member (o, "summary"),
        "elapsed");
  read_damage (f, json_object_get_object_member (o, "damage"));
  for (guint i = 0; notes && i < json_array_get_length (notes); i++)
    g_ptr_array_add (f->notes, g_strdup (json_array_get_string_element (notes,
                i)));
  f->stopped = g_strcmp0 (stop, "duration") == 0 ? SCAN_STOP_DURATION :
      g_strcmp0 (stop, "max-frames") == 0 ? SCAN_STOP_MAX_FRAMES :
      g_strcmp0 (stop, "signal") == 0 ? SCAN_STOP_SIGNAL : SCAN_STOP_NONE;
  f->error = dup_string (o, "error");
  return job;
}

/* ---- parts ----------------------------------------------------------- */

static gboolean
load_part (Part * p, GError ** error)
{
  JsonNode *root;
  JsonObject *o, *shard;
  GError *err = NULL;

  p->parser = json_parser_new ();
  if (!json_parser_load_from_file (p->parser, p->path, &err)) {
    g_set_error (error, MERGE_ERROR, 0, "%s: %s (give the --json output of "
        "a sharpness-scan --shard run)", p->path, err->message);
    g_clear_error (&err);
    return FALSE;
  }
  root = json_parser_get_root (p->parser);
  o = root && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) :
      NULL;
  if (!o || !json_object_has_member (o, "files")) {
    g_set_error (error, MERGE_ERROR, 0, "%s: not a sharpness-scan JSON (no "
        "files)", p->path);
    return FALSE;
  }
  if (get_int (o, "schema_version", 1) != SCAN_SCHEMA_VERSION ||
      is_null (o, "shard")) {
    g_set_error (error, MERGE_ERROR, 0, "%s: schema_version %" G_GINT64_FORMAT
        ", this sharpness-scan merges version %d (scan again with it)",
        p->path, get_int (o, "schema_version", 1), SCAN_SCHEMA_VERSION);
    return FALSE;
  }
  shard = json_object_get_object_member (o, "shard");
  p->shard_i = get_int (shard, "index", 0);
  p->shard_n = get_int (shard, "count", 1);
  p->inputs = get_int (shard, "inputs", 0);
  p->signal = g_strcmp0 (get_string (o, "signal"), "SIGINT") == 0 ? SIGINT :
      g_strcmp0 (get_string (o, "signal"), "SIGTERM") == 0 ? SIGTERM : 0;
  return TRUE;
}

static JsonObject *
part_object (const Part * p)
{
  return json_node_get_object (json_parser_get_root (p->parser));
}

/* The inputs of shard @p: how many of the list's fall to it. */
static guint
shard_size (const Part * p)
{
  return p->inputs > p->shard_i ? (p->inputs - p->shard_i + p->shard_n - 1)
      / p->shard_n : 0;
}

static gint
by_index (gconstpointer a, gconstpointer b)
{
  const ScanJob *x = *(ScanJob **) a, *y = *(ScanJob **) b;
  return x->file.index < y->file.index ? -1 : x->file.index > y->file.index;
}

static gint
unscanned_by_index (gconstpointer a, gconstpointer b)
{
  const Unscanned *x = a, *y = b;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Checks that the parts make one scan: the same shard count and input
 * list, every shard once, each complete. */
static gboolean
check_parts (Part * parts, guint n, GError ** error)
{
  for (guint i = 0; i < n; i++) {
    JsonArray *files = json_object_get_array_member (part_object (&parts[i]),
        "files");
    JsonArray *left = json_object_get_array_member (part_object (&parts[i]),
        "not_scanned");
    guint have = json_array_get_length (files) +
        (left ? json_array_get_length (left) : 0);

    if (parts[i].shard_n != parts[0].shard_n ||
        parts[i].inputs != parts[0].inputs) {
      g_set_error (error, MERGE_ERROR, 0, "%s is shard %u/%u of %u inputs, "
          "%s shard %u/%u of %u: parts of one scan share the input list and "
          "N", parts[i].path, parts[i].shard_i, parts[i].shard_n,
          parts[i].inputs, parts[0].path, parts[0].shard_i, parts[0].shard_n,
          parts[0].inputs);
      return FALSE;
    }
    for (guint k = 0; k < i; k++)
      if (parts[k].shard_i == parts[i].shard_i) {
        g_set_error (error, MERGE_ERROR, 0, "%s and %s are both shard %u/%u:"
            " give each shard once", parts[k].path, parts[i].path,
            parts[i].shard_i, parts[i].shard_n);
        return FALSE;
      }
    if (have != shard_size (&parts[i])) {
      g_set_error (error, MERGE_ERROR, 0, "%s: %u inputs scanned or left, "
          "shard %u/%u of %u inputs has %u: not a whole part", parts[i].path,
          have, parts[i].shard_i, parts[i].shard_n, parts[i].inputs,
          shard_size (&parts[i]));
      return FALSE;
    }
    parts[i].n_files = json_array_get_length (files);
  }
  if (n != parts[0].shard_n) {
    GString *missing = g_string_new (NULL);

    for (guint s = 0; s < parts[0].shard_n; s++) {
      guint k;
      for (k = 0; k < n && parts[k].shard_i != s; k++);
      if (k == n)
        g_string_append_printf (missing, "%s%u/%u", missing->len ? ", " : "",
            s, parts[0].shard_n);
    }
    g_set_error (error, MERGE_ERROR, 0, "shard%s %s missing: give the JSON "
        "of every shard of the scan", strchr (missing->str, ',') ? "s" : "",
        missing->str);
    g_string_free (missing, TRUE);
    return FALSE;
  }
  return TRUE;
}

/* The files of every part, in input-list order, and what the parts' signals
 * left. */
static gboolean
read_parts (Part * parts, guint n, ScanSettings * s, GPtrArray * jobs,
    GArray * unscanned, GError ** error)
{
  JsonObject *ref = NULL;
  const gchar *ref_path = NULL;

  for (guint i = 0; i < n; i++) {
    JsonObject *o = part_object (&parts[i]);
    JsonArray *files = json_object_get_array_member (o, "files");
    JsonArray *left = json_object_get_array_member (o, "not_scanned");
    guint next;

    for (guint k = 0; k < json_array_get_length (files); k++) {
      JsonObject *fo = json_array_get_object_element (files, k);
      JsonObject *so = json_object_get_object_member (fo, "settings");
      ScanJob *job;

      if (!so) {
        g_set_error (error, MERGE_ERROR, 0, "%s: a file without settings",
            parts[i].path);
        return FALSE;
      }
      if (!ref) {
        ref = so;
        ref_path = parts[i].path;
        if (!settings_from_json (so, parts[i].path, s, error))
          return FALSE;
      } else if (!same_settings (ref, ref_path, so, parts[i].path, error)) {
        return FALSE;
      }
      if (!(job = read_file (fo, s, &parts[i], error)))
        return FALSE;
      g_ptr_array_add (jobs, job);
    }
    /* Left unscanned: the shard's last inputs, after its files. */
    next = parts[i].shard_i + parts[i].n_files * parts[i].shard_n;
    for (guint k = 0; left && k < json_array_get_length (left); k++) {
      Unscanned u = { next + k * parts[i].shard_n,
        g_strdup (json_array_get_string_element (left, k))
      };
      g_array_append_val (unscanned, u);
    }
  }
  g_ptr_array_sort (jobs, by_index);
  g_array_sort (unscanned, unscanned_by_index);
  for (guint i = 1; i < jobs->len; i++)
    if (((ScanJob *) jobs->pdata[i])->file.index ==
        ((ScanJob *) jobs->pdata[i - 1])->file.index) {
      g_set_error (error, MERGE_ERROR, 0, "input %u (%s) is in two parts",
          ((ScanJob *) jobs->pdata[i])->file.index,
          ((ScanJob *) jobs->pdata[i])->file.input);
      return FALSE;
    }
  return TRUE;
}

gint
scan_merge_run (const ScanCommandLine * cl)
{
  guint n = cl->inputs ? g_strv_length (cl->inputs) : 0;
  Part *parts = g_new0 (Part, MAX (n, 1));
  ScanSettings s = cl->settings;
  ScanScheduler sched = { 0, };
  GPtrArray *jobs = g_ptr_array_new ();
  GArray *unscanned = g_array_new (FALSE, FALSE, sizeof (Unscanned));
  GError *err = NULL;
  gint status = 2;

  if (n == 0)
    g_set_error (&err, MERGE_ERROR, 0, "no part JSON given");
  for (guint i = 0; i < n && !err; i++) {
    parts[i].path = cl->inputs[i];
    load_part (&parts[i], &err);
  }
  if (!err && check_parts (parts, n, &err) &&
      read_parts (parts, n, &s, jobs, unscanned, &err)) {
    s.json_full = cl->settings.json_full;
    s.quiet = cl->settings.quiet;
    s.shard_i = 0;
    s.shard_n = 1;
    s.inputs_total = parts[0].inputs;
    /* The jobs were read with the parts' settings: give them these. */
    for (guint i = 0; i < jobs->len; i++)
      ((ScanJob *) jobs->pdata[i])->file.settings = &s;
    sched.settings = &s;
    sched.jobs = (ScanJob **) jobs->pdata;
    sched.n_jobs = jobs->len;
    sched.not_scanned = g_ptr_array_new ();
    for (guint i = 0; i < unscanned->len; i++)
      g_ptr_array_add (sched.not_scanned, g_array_index (unscanned,
              Unscanned, i).input);
    for (guint i = 0; i < n && !sched.signal; i++)
      sched.signal = parts[i].signal;
    if (scan_open_outputs (&sched, cl->csv, cl->json, cl->report)) {
      gint sig;

      scan_scheduler_write_all (&sched);
      /* The outputs say the scan was interrupted; the merge itself was
       * not, and its status says the outputs are incomplete. */
      sig = sched.signal;
      sched.signal = 0;
      status = scan_scheduler_status (&sched, cl->fail_on_blurry,
          cl->fail_on_damaged);
      if (sig || sched.not_scanned->len) {
        g_printerr ("sharpness-scan: --merge: %u input%s not scanned (a "
            "shard's scan was interrupted): the outputs list them; scan "
            "them and merge again\n", sched.not_scanned->len,
            sched.not_scanned->len == 1 ? " was" : "s were");
        status = status == 0 || status == 1 || status == 3 ? 2 : status;
      }
    }
    g_ptr_array_unref (sched.not_scanned);
  }
  if (err) {
    /* The message names parts and inputs: one line whatever they hold. */
    gchar *line = scan_name_for_line (err->message);

    g_printerr ("sharpness-scan: --merge: %s\n", line);
    g_free (line);
    g_clear_error (&err);
  }
  for (guint i = 0; i < jobs->len; i++)
    scan_job_free (jobs->pdata[i]);
  g_ptr_array_unref (jobs);
  for (guint i = 0; i < unscanned->len; i++)
    g_free (g_array_index (unscanned, Unscanned, i).input);
  g_array_unref (unscanned);
  for (guint i = 0; i < n; i++)
    g_clear_object (&parts[i].parser);
  g_free (parts);
  return status;
}
