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

/* How a key's value is read and where it goes: the tables below are the
 * keys a mapping may hold, in the order the errors list them. */
typedef enum
{
  VALUE_DOUBLE,
  VALUE_UINT,
  VALUE_BOOL,
  VALUE_STRING,
  /* A channel's keys read apart: the metric (before the others), the
   * alarms and transport mappings. */
  VALUE_METRIC,
  VALUE_ALARMS,
  VALUE_TRANSPORT,
} ValueType;

typedef struct
{
  const gchar *key;
  ValueType type;
  gsize offset;                 /* of the member in the structure read */
  gboolean channel_only;        /* refused in the defaults */
} Setting;

#define KIND_SETTING(key, type, member) \
  { key, type, G_STRUCT_OFFSET (MonitorKindSettings, member), FALSE }
static const Setting kind_settings[] = {
  KIND_SETTING ("onset", VALUE_DOUBLE, onset),
  KIND_SETTING ("clear", VALUE_DOUBLE, clear),
  KIND_SETTING ("level", VALUE_DOUBLE, level),
  KIND_SETTING ("enabled", VALUE_BOOL, enabled),
};

/* TR 101 290's switch and limits (s). */
#define TRANSPORT_SETTING(key, type, member) \
  { key, type, G_STRUCT_OFFSET (MonitorTransportConfig, member), FALSE }
static const Setting transport_settings[] = {
  TRANSPORT_SETTING ("enabled", VALUE_BOOL, enabled),
  TRANSPORT_SETTING ("pat-interval", VALUE_DOUBLE, pat_interval),
  TRANSPORT_SETTING ("pmt-interval", VALUE_DOUBLE, pmt_interval),
  TRANSPORT_SETTING ("pid-interval", VALUE_DOUBLE, pid_interval),
  TRANSPORT_SETTING ("pcr-repetition", VALUE_DOUBLE, pcr_repetition),
  TRANSPORT_SETTING ("pcr-discontinuity", VALUE_DOUBLE, pcr_discontinuity),
  TRANSPORT_SETTING ("pts-interval", VALUE_DOUBLE, pts_interval),
};

#define CHANNEL_SETTING(key, type, member, channel_only) \
  { key, type, G_STRUCT_OFFSET (MonitorChannelConfig, member), channel_only }
static const Setting channel_settings[] = {
  CHANNEL_SETTING ("name", VALUE_STRING, name, TRUE),
  CHANNEL_SETTING ("uri", VALUE_STRING, uri, TRUE),
  CHANNEL_SETTING ("source", VALUE_STRING, source, TRUE),
  CHANNEL_SETTING ("metric", VALUE_METRIC, metric, FALSE),
  CHANNEL_SETTING ("threshold", VALUE_DOUBLE, threshold, FALSE),
  CHANNEL_SETTING ("relative-threshold", VALUE_DOUBLE, relative_threshold,
      FALSE),
  CHANNEL_SETTING ("window", VALUE_UINT, window, FALSE),
  CHANNEL_SETTING ("max-blurry-gap", VALUE_UINT, max_blurry_gap, FALSE),
  CHANNEL_SETTING ("tiles", VALUE_STRING, tiles, FALSE),
  CHANNEL_SETTING ("roi-types", VALUE_STRING, roi_types, FALSE),
  CHANNEL_SETTING ("compare-with", VALUE_STRING, compare_with, TRUE),
  CHANNEL_SETTING ("compare-vmaf", VALUE_BOOL, compare_vmaf, FALSE),
  CHANNEL_SETTING ("vmaf-model", VALUE_STRING, vmaf_model, FALSE),
  CHANNEL_SETTING ("black-pixel-threshold", VALUE_DOUBLE,
      black_pixel_threshold, FALSE),
  CHANNEL_SETTING ("black-ratio", VALUE_DOUBLE, black_ratio, FALSE),
  CHANNEL_SETTING ("freeze-noise", VALUE_DOUBLE, freeze_noise, FALSE),
  CHANNEL_SETTING ("alarms", VALUE_ALARMS, kinds, FALSE),
  CHANNEL_SETTING ("transport", VALUE_TRANSPORT, transport, FALSE),
};

static const Setting *
setting_find (const Setting * table, guint n, const gchar * key)
{
  for (guint i = 0; i < n; i++)
    if (g_str_equal (key, table[i].key))
      return &table[i];
  return NULL;
}

/* "onset, clear, level, enabled": the keys of @table, for the errors. */
static gchar *
setting_keys (const Setting * table, guint n)
{
  GString *keys = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (keys, "%s%s", i ? ", " : "", table[i].key);
  return g_string_free (keys, FALSE);
}

/* A plain value (the four first types) into its member of @base, read at
 * its key node @kn (errors name the key's line) and named @full. */
static gboolean
read_value (Ctx * x, yaml_node_t * kn, yaml_node_t * vn, const gchar * full,
    const Setting * set, gpointer base)
{
  const gchar *s = scalar_at (x, kn, vn, full);
  gpointer member = G_STRUCT_MEMBER_P (base, set->offset);
  gchar *end;
  gdouble d;
  guint64 u;

  if (!s)
    return FALSE;
  switch (set->type) {
    case VALUE_DOUBLE:
      errno = 0;
      d = g_ascii_strtod (s, &end);
      if (end == s || *end || errno || !isfinite (d))
        return fail (x, kn, "%s: '%s' is not a number", full, s);
      *(gdouble *) member = d;
      return TRUE;
    case VALUE_UINT:
      if (!g_ascii_string_to_unsigned (s, 10, 0, G_MAXUINT, &u, NULL))
        return fail (x, kn, "%s: '%s' is not a whole number >= 0", full, s);
      *(guint *) member = (guint) u;
      return TRUE;
    case VALUE_BOOL:
      if (!g_ascii_strcasecmp (s, "true") || !g_ascii_strcasecmp (s, "yes")
          || !g_ascii_strcasecmp (s, "on"))
        *(gboolean *) member = TRUE;
      else if (!g_ascii_strcasecmp (s, "false") ||
          !g_ascii_strcasecmp (s, "no") || !g_ascii_strcasecmp (s, "off"))
        *(gboolean *) member = FALSE;
      else
        return fail (x, kn, "%s: '%s' is not true or false", full, s);
      return TRUE;
    case VALUE_STRING:
      g_free (*(gchar **) member);
      *(gchar **) member = g_strdup (s);
      return TRUE;
    default:
      g_return_val_if_reached (FALSE);
  }
}

/* A mapping of plain values, each a key of @table, into @base: an alarm
 * kind's settings ("alarms: blur") or the transport's ("transport").
 * Errors name @what and, about the mapping as a whole, @at's line (its
 * key's). */
static gboolean
read_table (Ctx * x, yaml_node_t * at, yaml_node_t * map, const gchar * what,
    const Setting * table, guint n, gpointer base)
{
  gchar *keys = setting_keys (table, n);
  gboolean ok = TRUE;

  if (map->type != YAML_MAPPING_NODE) {
    fail (x, at, "%s: a mapping (%s) expected", what, keys);
    g_free (keys);
    return FALSE;
  }
  for (yaml_node_pair_t * p = map->data.mapping.pairs.start;
      ok && p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *kn = yaml_document_get_node (x->doc, p->key);
    yaml_node_t *vn = yaml_document_get_node (x->doc, p->value);
    const gchar *key = scalar (x, kn, "key");
    const Setting *s = key ? setting_find (table, n, key) : NULL;
    gchar *full;

    if (!key)
      ok = FALSE;
    else if (!s)
      ok = fail (x, kn, "%s: unknown key '%s' (%s)", what, key, keys);
    if (!ok)
      break;
    full = g_strdup_printf ("%s: %s", what, key);
    if ((ok = read_value (x, kn, vn, full, s, base)))
      note_line (x, full, kn);
    g_free (full);
  }
  g_free (keys);
  return ok;
}

/* The alarms mapping: one mapping of settings per kind. */
static gboolean
read_alarms (Ctx * x, yaml_node_t * kn, yaml_node_t * vn,
    MonitorKindSettings * kinds)
{
  if (vn->type != YAML_MAPPING_NODE)
    return fail (x, kn, "alarms: a mapping of alarm kinds expected");
  for (yaml_node_pair_t * q = vn->data.mapping.pairs.start;
      q < vn->data.mapping.pairs.top; q++) {
    yaml_node_t *akn = yaml_document_get_node (x->doc, q->key);
    yaml_node_t *avn = yaml_document_get_node (x->doc, q->value);
    const gchar *kind = scalar (x, akn, "alarm kind");
    gint k = kind ? monitor_kind_from_name (kind) : -1;
    gchar *what;
    gboolean ok;

    if (!kind)
      return FALSE;
    if (k < 0) {
      GString *names = g_string_new (NULL);

      for (gint i = 0; i < MONITOR_N_KINDS; i++)
        g_string_append_printf (names, "%s%s", i ? ", " : "",
            monitor_kind_name (i));
      fail (x, akn, "alarms: unknown kind '%s' (%s)", kind, names->str);
      g_string_free (names, TRUE);
      return FALSE;
    }
    what = g_strdup_printf ("alarms: %s", kind);
    ok = read_table (x, akn, avn, what, kind_settings,
        G_N_ELEMENTS (kind_settings), &kinds[k]);
    g_free (what);
    if (!ok)
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
    const Setting *s = key ? setting_find (channel_settings,
        G_N_ELEMENTS (channel_settings), key) : NULL;
    gboolean ok;

    if (!key)
      return FALSE;
    if (!s || (s->channel_only && !channel)) {
      gchar *keys = setting_keys (channel_settings,
          G_N_ELEMENTS (channel_settings));

      fail (x, kn, "unknown key '%s' (%s)", key, channel ? keys :
          "in defaults: the channel keys but name, uri, source and "
          "compare-with");
      g_free (keys);
      return FALSE;
    }
    switch (s->type) {
      case VALUE_METRIC:
        continue;
      case VALUE_ALARMS:
        ok = read_alarms (x, kn, vn, c->kinds);
        break;
      case VALUE_TRANSPORT:
        ok = read_table (x, kn, vn, "transport", transport_settings,
            G_N_ELEMENTS (transport_settings), &c->transport);
        break;
      default:
        ok = read_value (x, kn, vn, key, s, c);
        break;
    }
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

/* VMAF's keys where a channel sets them itself and they would do
 * nothing: VMAF is a compared pair's, and a model without VMAF on is
 * most likely a forgotten `compare-vmaf: true`.  (From the defaults they
 * apply to the compared channels only.) */
static gboolean
check_vmaf_keys (Ctx * x, const MonitorChannelConfig * c)
{
  const gchar *key = c->compare_vmaf && g_hash_table_contains (x->lines,
      "compare-vmaf") ? "compare-vmaf" : g_hash_table_contains (x->lines,
      "vmaf-model") ? "vmaf-model" : NULL;
  guint line = key ? GPOINTER_TO_UINT (g_hash_table_lookup (x->lines, key))
      : 0;

  if (key && !c->compare_with) {
    g_set_error (x->error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "%s:%u: %s: channel '%s' is compared with no channel, and VMAF is "
        "a compared pair's (add compare-with: OTHER-CHANNEL)", x->path,
        line, key, c->name);
    return FALSE;
  }
  if (key && !c->compare_vmaf) {
    g_set_error (x->error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "%s:%u: vmaf-model: VMAF is off on channel '%s' (compare-vmaf: "
        "true turns it on)", x->path, line, c->name);
    return FALSE;
  }
  return TRUE;
}

/* A channel read: its values, then what it reads. */
static gboolean
check_channel (Ctx * x, const MonitorChannelConfig * c,
    GHashTable * default_lines)
{
  const gchar *key = NULL;
  gchar *where;
  gboolean ok;

  if (!check_vmaf_keys (x, c))
    return FALSE;
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
