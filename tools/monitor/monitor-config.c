/* sharpness-monitor's configuration file: YAML (libyaml), a `defaults`
 * mapping and a `channels` sequence (docs/reference/sharpness-monitor.md).  Every error names
 * the file, the line of the key concerned and what is wrong; unknown and
 * duplicate keys and a second document are errors (a typo, a key given
 * twice or a stray "---" would otherwise silently leave a default in
 * place).  What a channel reads is checked as well: its source fragment
 * is built (not started) and its file:// file must be readable.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "monitor.h"

typedef struct
{
  const gchar *path;
  yaml_document_t *doc;
  GError **error;
  /* The line of each key of the settings being read ("threshold",
   * "alarms: blur: onset"), so that a bad value found afterwards
   * (monitor_channel_config_validate) names its own key's line. */
  GHashTable *lines;
} Ctx;

static guint
line_of (yaml_node_t * n)
{
  return n ? (guint) n->start_mark.line + 1 : 0;
}

static gboolean
fail (Ctx * x, yaml_node_t * n, const gchar * format, ...)
    G_GNUC_PRINTF (3, 4);

static gboolean
fail (Ctx * x, yaml_node_t * n, const gchar * format, ...)
{
  va_list ap;
  gchar *msg;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (x->error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "%s:%u: %s", x->path, line_of (n), msg);
  g_free (msg);
  return FALSE;
}

/* @n's text; an error at @at's line (the key's) when @n is not a scalar. */
static const gchar *
scalar_at (Ctx * x, yaml_node_t * at, yaml_node_t * n, const gchar * key)
{
  if (!n || n->type != YAML_SCALAR_NODE) {
    fail (x, at ? at : n, "%s: a single value expected", key);
    return NULL;
  }
  return (const gchar *) n->data.scalar.value;
}

static const gchar *
scalar (Ctx * x, yaml_node_t * n, const gchar * key)
{
  return scalar_at (x, n, n, key);
}

/* Remembers where @key (its full name) is, for the errors found later. */
static void
note_line (Ctx * x, const gchar * key, yaml_node_t * kn)
{
  if (x->lines)
    g_hash_table_insert (x->lines, g_strdup (key),
        GUINT_TO_POINTER (line_of (kn)));
}

/* Each value is read at its key node @kn (errors name the key's line). */
static gboolean
get_double (Ctx * x, yaml_node_t * kn, yaml_node_t * n, const gchar * key,
    gdouble * out)
{
  const gchar *s = scalar_at (x, kn, n, key);
  gchar *end;
  gdouble v;

  if (!s)
    return FALSE;
  errno = 0;
  v = g_ascii_strtod (s, &end);
  if (end == s || *end || errno || !isfinite (v))
    return fail (x, kn, "%s: '%s' is not a number", key, s);
  *out = v;
  return TRUE;
}

static gboolean
get_uint (Ctx * x, yaml_node_t * kn, yaml_node_t * n, const gchar * key,
    guint * out)
{
  const gchar *s = scalar_at (x, kn, n, key);
  guint64 v;

  if (!s)
    return FALSE;
  if (!g_ascii_string_to_unsigned (s, 10, 0, G_MAXUINT, &v, NULL))
    return fail (x, kn, "%s: '%s' is not a whole number >= 0", key, s);
  *out = (guint) v;
  return TRUE;
}

static gboolean
get_bool (Ctx * x, yaml_node_t * kn, yaml_node_t * n, const gchar * key,
    gboolean * out)
{
  const gchar *s = scalar_at (x, kn, n, key);

  if (!s)
    return FALSE;
  if (!g_ascii_strcasecmp (s, "true") || !g_ascii_strcasecmp (s, "yes") ||
      !g_ascii_strcasecmp (s, "on"))
    *out = TRUE;
  else if (!g_ascii_strcasecmp (s, "false") || !g_ascii_strcasecmp (s, "no")
      || !g_ascii_strcasecmp (s, "off"))
    *out = FALSE;
  else
    return fail (x, kn, "%s: '%s' is not true or false", key, s);
  return TRUE;
}

static gboolean
get_string (Ctx * x, yaml_node_t * kn, yaml_node_t * n, const gchar * key,
    gchar ** out)
{
  const gchar *s = scalar_at (x, kn, n, key);

  if (!s)
    return FALSE;
  g_free (*out);
  *out = g_strdup (s);
  return TRUE;
}

/* One kind's settings: @kn_kind is the kind's key (errors about the
 * mapping as a whole name its line). */
static gboolean
read_alarm (Ctx * x, yaml_node_t * kn_kind, yaml_node_t * map,
    MonitorKindSettings * k, const gchar * kind)
{
  if (map->type != YAML_MAPPING_NODE)
    return fail (x, kn_kind, "alarms: %s: a mapping (onset, clear, level, "
        "enabled) expected", kind);
  for (yaml_node_pair_t * p = map->data.mapping.pairs.start;
      p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *kn = yaml_document_get_node (x->doc, p->key);
    yaml_node_t *vn = yaml_document_get_node (x->doc, p->value);
    const gchar *key = scalar (x, kn, "key");
    gchar *full;
    gboolean ok;

    if (!key)
      return FALSE;
    full = g_strdup_printf ("alarms: %s: %s", kind, key);
    if (g_str_equal (key, "onset"))
      ok = get_double (x, kn, vn, full, &k->onset);
    else if (g_str_equal (key, "clear"))
      ok = get_double (x, kn, vn, full, &k->clear);
    else if (g_str_equal (key, "level"))
      ok = get_double (x, kn, vn, full, &k->level);
    else if (g_str_equal (key, "enabled"))
      ok = get_bool (x, kn, vn, full, &k->enabled);
    else
      ok = fail (x, kn, "alarms: %s: unknown key '%s' (onset, clear, level, "
          "enabled)", kind, key);
    if (ok)
      note_line (x, full, kn);
    g_free (full);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

/* The transport mapping: TR 101 290's switch and limits (s). */
static gboolean
read_transport (Ctx * x, yaml_node_t * tkn, yaml_node_t * map,
    MonitorTransportConfig * t)
{
  static const struct
  {
    const gchar *key;
    gsize offset;
  } limits[] = {
    {"pat-interval", G_STRUCT_OFFSET (MonitorTransportConfig, pat_interval)},
    {"pmt-interval", G_STRUCT_OFFSET (MonitorTransportConfig, pmt_interval)},
    {"pid-interval", G_STRUCT_OFFSET (MonitorTransportConfig, pid_interval)},
    {"pcr-repetition", G_STRUCT_OFFSET (MonitorTransportConfig,
            pcr_repetition)},
    {"pcr-discontinuity", G_STRUCT_OFFSET (MonitorTransportConfig,
            pcr_discontinuity)},
    {"pts-interval", G_STRUCT_OFFSET (MonitorTransportConfig, pts_interval)},
  };

  if (map->type != YAML_MAPPING_NODE)
    return fail (x, tkn, "transport: a mapping (enabled, pat-interval, "
        "pmt-interval, pid-interval, pcr-repetition, pcr-discontinuity, "
        "pts-interval) expected");
  for (yaml_node_pair_t * p = map->data.mapping.pairs.start;
      p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *kn = yaml_document_get_node (x->doc, p->key);
    yaml_node_t *vn = yaml_document_get_node (x->doc, p->value);
    const gchar *key = scalar (x, kn, "key");
    gchar *full;
    gboolean ok = FALSE, known = FALSE;

    if (!key)
      return FALSE;
    full = g_strdup_printf ("transport: %s", key);
    if (g_str_equal (key, "enabled")) {
      known = TRUE;
      ok = get_bool (x, kn, vn, full, &t->enabled);
    }
    for (guint i = 0; i < G_N_ELEMENTS (limits) && !known; i++)
      if (g_str_equal (key, limits[i].key)) {
        known = TRUE;
        ok = get_double (x, kn, vn, full, &G_STRUCT_MEMBER (gdouble, t,
                limits[i].offset));
      }
    if (!known)
      ok = fail (x, kn, "transport: unknown key '%s' (enabled, "
          "pat-interval, pmt-interval, pid-interval, pcr-repetition, "
          "pcr-discontinuity, pts-interval)", key);
    if (ok)
      note_line (x, full, kn);
    g_free (full);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

/* The alarms mapping: one mapping of settings per kind. */
static gboolean
read_alarms (Ctx * x, yaml_node_t * kn, yaml_node_t * vn,
    MonitorChannelConfig * c)
{
  if (vn->type != YAML_MAPPING_NODE)
    return fail (x, kn, "alarms: a mapping of alarm kinds expected");
  for (yaml_node_pair_t * q = vn->data.mapping.pairs.start;
      q < vn->data.mapping.pairs.top; q++) {
    yaml_node_t *akn = yaml_document_get_node (x->doc, q->key);
    yaml_node_t *avn = yaml_document_get_node (x->doc, q->value);
    const gchar *kind = scalar (x, akn, "alarm kind");
    gint k = kind ? monitor_kind_from_name (kind) : -1;

    if (!kind)
      return FALSE;
    if (k < 0)
      return fail (x, akn, "alarms: unknown kind '%s' (blur, black, "
          "freeze, silence, no-signal, psnr-drop, ssim-drop, tr101290-p1, "
          "tr101290-p2, loudness-high, loudness-low, true-peak, no-audio, "
          "no-captions)",
          kind);
    if (!read_alarm (x, akn, avn, &c->kinds[k], kind))
      return FALSE;
  }
  return TRUE;
}

/* One channel's (or the defaults') keys; @channel FALSE for the defaults,
 * which name no channel. */
static gboolean
read_settings (Ctx * x, yaml_node_t * map, MonitorChannelConfig * c,
    gboolean channel)
{
  if (map->type != YAML_MAPPING_NODE)
    return fail (x, map, "%s: a mapping of settings expected", channel ?
        "a channel" : "defaults");
  /* The metric first, whatever the order of the keys: it brings its own
   * default thresholds, which a threshold key then overrides. */
  for (yaml_node_pair_t * p = map->data.mapping.pairs.start;
      p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *kn = yaml_document_get_node (x->doc, p->key);
    yaml_node_t *vn = yaml_document_get_node (x->doc, p->value);
    const gchar *key = scalar (x, kn, "key");
    const gchar *s;
    gint m;

    if (!key)
      return FALSE;
    if (!g_str_equal (key, "metric"))
      continue;
    if (!(s = scalar_at (x, kn, vn, key)))
      return FALSE;
    if ((m = sharpness_metric_from_nick (s)) < 0)
      return fail (x, kn, "metric: unknown metric '%s' (see "
          "gst-inspect-1.0 cudasharpness)", s);
    monitor_channel_config_set_metric (c, m);
    note_line (x, key, kn);
  }
  for (yaml_node_pair_t * p = map->data.mapping.pairs.start;
      p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *kn = yaml_document_get_node (x->doc, p->key);
    yaml_node_t *vn = yaml_document_get_node (x->doc, p->value);
    const gchar *key = scalar (x, kn, "key");
    gboolean ok = TRUE;

    if (!key)
      return FALSE;
    if (g_str_equal (key, "metric"))
      continue;
    if (channel && g_str_equal (key, "name"))
      ok = get_string (x, kn, vn, key, &c->name);
    else if (channel && g_str_equal (key, "uri"))
      ok = get_string (x, kn, vn, key, &c->uri);
    else if (channel && g_str_equal (key, "source"))
      ok = get_string (x, kn, vn, key, &c->source);
    else if (channel && g_str_equal (key, "compare-with"))
      ok = get_string (x, kn, vn, key, &c->compare_with);
    else if (g_str_equal (key, "threshold"))
      ok = get_double (x, kn, vn, key, &c->threshold);
    else if (g_str_equal (key, "relative-threshold"))
      ok = get_double (x, kn, vn, key, &c->relative_threshold);
    else if (g_str_equal (key, "window"))
      ok = get_uint (x, kn, vn, key, &c->window);
    else if (g_str_equal (key, "max-blurry-gap"))
      ok = get_uint (x, kn, vn, key, &c->max_blurry_gap);
    else if (g_str_equal (key, "tiles"))
      ok = get_string (x, kn, vn, key, &c->tiles);
    else if (g_str_equal (key, "roi-types"))
      ok = get_string (x, kn, vn, key, &c->roi_types);
    else if (g_str_equal (key, "black-pixel-threshold"))
      ok = get_double (x, kn, vn, key, &c->black_pixel_threshold);
    else if (g_str_equal (key, "black-ratio"))
      ok = get_double (x, kn, vn, key, &c->black_ratio);
    else if (g_str_equal (key, "freeze-noise"))
      ok = get_double (x, kn, vn, key, &c->freeze_noise);
    else if (g_str_equal (key, "alarms"))
      ok = read_alarms (x, kn, vn, c);
    else if (g_str_equal (key, "transport"))
      ok = read_transport (x, kn, vn, &c->transport);
    else
      return fail (x, kn, "unknown key '%s'%s", key, channel ?
          " (name, uri, source, metric, threshold, relative-threshold, "
          "window, max-blurry-gap, tiles, roi-types, compare-with, "
          "black-pixel-threshold, black-ratio, freeze-noise, alarms, "
          "transport)" :
          " (in defaults: the channel keys but name, uri, source and "
          "compare-with)");
    if (!ok)
      return FALSE;
    note_line (x, key, kn);
  }
  return TRUE;
}

/* libyaml keeps the last of two equal keys without a word: every mapping
 * of the document is checked for them first. */
static gboolean
check_duplicate_keys (Ctx * x)
{
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean ok = TRUE;

  for (yaml_node_t * n = x->doc->nodes.start; n < x->doc->nodes.top && ok;
      n++) {
    if (n->type != YAML_MAPPING_NODE)
      continue;
    g_hash_table_remove_all (seen);
    for (yaml_node_pair_t * p = n->data.mapping.pairs.start;
        p < n->data.mapping.pairs.top && ok; p++) {
      yaml_node_t *kn = yaml_document_get_node (x->doc, p->key);
      gchar *key;
      gpointer first;

      /* Keys that are not scalars are refused when read. */
      if (!kn || kn->type != YAML_SCALAR_NODE)
        continue;
      key = (gchar *) kn->data.scalar.value;
      if (g_hash_table_lookup_extended (seen, key, NULL, &first))
        ok = fail (x, kn, "duplicate key '%s' (first at line %u): give "
            "each key once", key, GPOINTER_TO_UINT (first));
      else
        g_hash_table_insert (seen, key, GUINT_TO_POINTER (line_of (kn)));
    }
  }
  g_hash_table_unref (seen);
  return ok;
}

/* libyaml's problem at its line; its context ("while parsing a flow
 * mapping") names where that began when it is another line. */
static gboolean
syntax_error (const gchar * path, yaml_parser_t * parser, GError ** error)
{
  gsize line = parser->problem_mark.line + 1;
  gsize context = parser->context_mark.line + 1;
  gchar *where = parser->context && context != line ?
      g_strdup_printf (" (line %zu)", context) : g_strdup ("");

  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "%s:%zu: not valid YAML: %s%s%s%s", path, line,
      parser->problem ? parser->problem : "syntax error",
      parser->context ? " " : "", parser->context ? parser->context : "",
      where);
  g_free (where);
  return FALSE;
}

/* The file's one document into @doc.  A second one (after "---") is an
 * error: its settings would otherwise be dropped without a word. */
static gboolean
load_document (const gchar * path, FILE * f, yaml_document_t * doc,
    GError ** error)
{
  yaml_parser_t parser;
  yaml_document_t next;
  gboolean ok = TRUE;

  yaml_parser_initialize (&parser);
  yaml_parser_set_input_file (&parser, f);
  if (!yaml_parser_load (&parser, doc)) {
    syntax_error (path, &parser, error);
    yaml_parser_delete (&parser);
    return FALSE;
  }
  if (!yaml_parser_load (&parser, &next)) {
    ok = syntax_error (path, &parser, error);
  } else {
    if (yaml_document_get_root_node (&next)) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "%s:%zu: a second YAML document: the file holds one (defaults "
          "and channels); remove the '---' or merge the two", path,
          next.start_mark.line + 1);
      ok = FALSE;
    }
    yaml_document_delete (&next);
  }
  yaml_parser_delete (&parser);
  if (!ok)
    yaml_document_delete (doc);
  return ok;
}

/* The place of a channel's bad value: the line of its key in the channel
 * or, where the channel does not set it, in the defaults; else the
 * channel's. */
static gchar *
where_of (const gchar * path, const MonitorChannelConfig * c,
    GHashTable * lines, GHashTable * default_lines, const gchar * key)
{
  guint line = 0;

  if (key)
    line = GPOINTER_TO_UINT (g_hash_table_lookup (lines, key));
  if (key && !line)
    line = GPOINTER_TO_UINT (g_hash_table_lookup (default_lines, key));
  return g_strdup_printf ("%s:%u", path, line ? line : c->line);
}

/* A channel read: its values, then what it reads. */
static gboolean
check_channel (Ctx * x, const MonitorChannelConfig * c,
    GHashTable * default_lines)
{
  const gchar *key = NULL;
  gchar *where;
  gboolean ok;

  if (!monitor_channel_config_validate (c, &key, x->error)) {
    where = where_of (x->path, c, x->lines, default_lines, key);
    g_prefix_error (x->error, "%s: ", where);
    g_free (where);
    return FALSE;
  }
  where = where_of (x->path, c, x->lines, default_lines, c->source ?
      "source" : "uri");
  ok = monitor_channel_config_check_input (c, where, x->error);
  g_free (where);
  return ok;
}

gboolean
monitor_config_load (const gchar * path, GPtrArray * channels,
    GError ** error)
{
  yaml_document_t doc;
  yaml_node_t *root, *chans = NULL, *chans_key = NULL, *defaults = NULL;
  MonitorChannelConfig base;
  GHashTable *default_lines = g_hash_table_new_full (g_str_hash,
      g_str_equal, g_free, NULL);
  Ctx x = { path, &doc, error, default_lines };
  gboolean ok = TRUE;
  FILE *f = fopen (path, "rb");

  if (!f) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot read the configuration file %s: %s", path,
        g_strerror (errno));
    g_hash_table_unref (default_lines);
    return FALSE;
  }
  ok = load_document (path, f, &doc, error);
  fclose (f);
  if (!ok) {
    g_hash_table_unref (default_lines);
    return FALSE;
  }

  root = yaml_document_get_root_node (&doc);
  if (!root || root->type != YAML_MAPPING_NODE) {
    ok = fail (&x, root, "a mapping with 'channels' (and optionally "
        "'defaults') expected");
    goto done;
  }
  if (!(ok = check_duplicate_keys (&x)))
    goto done;
  for (yaml_node_pair_t * p = root->data.mapping.pairs.start;
      p < root->data.mapping.pairs.top && ok; p++) {
    yaml_node_t *kn = yaml_document_get_node (&doc, p->key);
    const gchar *key = scalar (&x, kn, "key");

    if (!key) {
      ok = FALSE;
    } else if (g_str_equal (key, "channels")) {
      chans = yaml_document_get_node (&doc, p->value);
      chans_key = kn;
    } else if (g_str_equal (key, "defaults")) {
      defaults = yaml_document_get_node (&doc, p->value);
    } else {
      ok = fail (&x, kn, "unknown key '%s' (channels, defaults)", key);
    }
  }
  if (!ok)
    goto done;
  monitor_channel_config_defaults (&base);
  if (defaults && !read_settings (&x, defaults, &base, FALSE)) {
    ok = FALSE;
    goto done_base;
  }
  if (!chans || chans->type != YAML_SEQUENCE_NODE) {
    ok = fail (&x, chans_key ? chans_key : root, "'channels' must be a list "
        "of channels (- name: ..., uri: ...)");
    goto done_base;
  }
  for (yaml_node_item_t * i = chans->data.sequence.items.start;
      i < chans->data.sequence.items.top && ok; i++) {
    yaml_node_t *cn = yaml_document_get_node (&doc, *i);
    MonitorChannelConfig *c = monitor_channel_config_copy (&base);

    c->line = line_of (cn);
    x.lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    ok = read_settings (&x, cn, c, TRUE);
    if (ok && !c->name && c->uri)
      c->name = monitor_channel_name_from_uri (c->uri);
    if (ok)
      ok = check_channel (&x, c, default_lines);
    g_hash_table_unref (x.lines);
    x.lines = NULL;
    if (ok)
      g_ptr_array_add (channels, c);
    else
      monitor_channel_config_free (c);
  }
done_base:
  g_free (base.tiles);
  g_free (base.roi_types);
done:
  yaml_document_delete (&doc);
  g_hash_table_unref (default_lines);
  return ok;
}
