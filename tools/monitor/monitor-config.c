/* sharpness-monitor's configuration file: YAML (libyaml), a `defaults`
 * mapping and a `channels` sequence (docs/reference/sharpness-monitor.md).  Every error names
 * the file, the line and what is wrong; unknown keys are errors (a typo
 * would otherwise silently leave a default in place).
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

static const gchar *
scalar (Ctx * x, yaml_node_t * n, const gchar * key)
{
  if (!n || n->type != YAML_SCALAR_NODE) {
    fail (x, n, "%s: a single value expected", key);
    return NULL;
  }
  return (const gchar *) n->data.scalar.value;
}

static gboolean
get_double (Ctx * x, yaml_node_t * n, const gchar * key, gdouble * out)
{
  const gchar *s = scalar (x, n, key);
  gchar *end;
  gdouble v;

  if (!s)
    return FALSE;
  errno = 0;
  v = g_ascii_strtod (s, &end);
  if (end == s || *end || errno || !isfinite (v))
    return fail (x, n, "%s: '%s' is not a number", key, s);
  *out = v;
  return TRUE;
}

static gboolean
get_uint (Ctx * x, yaml_node_t * n, const gchar * key, guint * out)
{
  const gchar *s = scalar (x, n, key);
  guint64 v;

  if (!s)
    return FALSE;
  if (!g_ascii_string_to_unsigned (s, 10, 0, G_MAXUINT, &v, NULL))
    return fail (x, n, "%s: '%s' is not a whole number >= 0", key, s);
  *out = (guint) v;
  return TRUE;
}

static gboolean
get_bool (Ctx * x, yaml_node_t * n, const gchar * key, gboolean * out)
{
  const gchar *s = scalar (x, n, key);

  if (!s)
    return FALSE;
  if (!g_ascii_strcasecmp (s, "true") || !g_ascii_strcasecmp (s, "yes") ||
      !g_ascii_strcasecmp (s, "on"))
    *out = TRUE;
  else if (!g_ascii_strcasecmp (s, "false") || !g_ascii_strcasecmp (s, "no")
      || !g_ascii_strcasecmp (s, "off"))
    *out = FALSE;
  else
    return fail (x, n, "%s: '%s' is not true or false", key, s);
  return TRUE;
}

static gboolean
get_string (Ctx * x, yaml_node_t * n, const gchar * key, gchar ** out)
{
  const gchar *s = scalar (x, n, key);

  if (!s)
    return FALSE;
  g_free (*out);
  *out = g_strdup (s);
  return TRUE;
}

static gboolean
read_alarm (Ctx * x, yaml_node_t * map, MonitorKindSettings * k,
    const gchar * kind)
{
  if (map->type != YAML_MAPPING_NODE)
    return fail (x, map, "alarms: %s: a mapping (onset, clear, level, "
        "enabled) expected", kind);
  for (yaml_node_pair_t * p = map->data.mapping.pairs.start;
      p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *kn = yaml_document_get_node (x->doc, p->key);
    yaml_node_t *vn = yaml_document_get_node (x->doc, p->value);
    const gchar *key = scalar (x, kn, "key");
    gboolean ok;

    if (!key)
      return FALSE;
    if (g_str_equal (key, "onset"))
      ok = get_double (x, vn, key, &k->onset);
    else if (g_str_equal (key, "clear"))
      ok = get_double (x, vn, key, &k->clear);
    else if (g_str_equal (key, "level"))
      ok = get_double (x, vn, key, &k->level);
    else if (g_str_equal (key, "enabled"))
      ok = get_bool (x, vn, key, &k->enabled);
    else
      ok = fail (x, kn, "alarms: %s: unknown key '%s' (onset, clear, level, "
          "enabled)", kind, key);
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
    if (!(s = scalar (x, vn, key)))
      return FALSE;
    if ((m = sharpness_metric_from_nick (s)) < 0)
      return fail (x, vn, "metric: unknown metric '%s' (see "
          "gst-inspect-1.0 cudasharpness)", s);
    monitor_channel_config_set_metric (c, m);
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
      ok = get_string (x, vn, key, &c->name);
    else if (channel && g_str_equal (key, "uri"))
      ok = get_string (x, vn, key, &c->uri);
    else if (channel && g_str_equal (key, "source"))
      ok = get_string (x, vn, key, &c->source);
    else if (channel && g_str_equal (key, "compare-with"))
      ok = get_string (x, vn, key, &c->compare_with);
    else if (g_str_equal (key, "threshold"))
      ok = get_double (x, vn, key, &c->threshold);
    else if (g_str_equal (key, "relative-threshold"))
      ok = get_double (x, vn, key, &c->relative_threshold);
    else if (g_str_equal (key, "window"))
      ok = get_uint (x, vn, key, &c->window);
    else if (g_str_equal (key, "max-blurry-gap"))
      ok = get_uint (x, vn, key, &c->max_blurry_gap);
    else if (g_str_equal (key, "tiles"))
      ok = get_string (x, vn, key, &c->tiles);
    else if (g_str_equal (key, "roi-types"))
      ok = get_string (x, vn, key, &c->roi_types);
    else if (g_str_equal (key, "black-pixel-threshold"))
      ok = get_double (x, vn, key, &c->black_pixel_threshold);
    else if (g_str_equal (key, "black-ratio"))
      ok = get_double (x, vn, key, &c->black_ratio);
    else if (g_str_equal (key, "freeze-noise"))
      ok = get_double (x, vn, key, &c->freeze_noise);
    else if (g_str_equal (key, "alarms")) {
      if (vn->type != YAML_MAPPING_NODE)
        return fail (x, vn, "alarms: a mapping of alarm kinds expected");
      for (yaml_node_pair_t * q = vn->data.mapping.pairs.start;
          q < vn->data.mapping.pairs.top && ok; q++) {
        yaml_node_t *akn = yaml_document_get_node (x->doc, q->key);
        yaml_node_t *avn = yaml_document_get_node (x->doc, q->value);
        const gchar *kind = scalar (x, akn, "alarm kind");
        gint k = kind ? monitor_kind_from_name (kind) : -1;

        if (!kind)
          return FALSE;
        if (k < 0)
          return fail (x, akn, "alarms: unknown kind '%s' (blur, black, "
              "freeze, silence, no-signal, psnr-drop, ssim-drop)", kind);
        ok = read_alarm (x, avn, &c->kinds[k], kind);
      }
    } else
      return fail (x, kn, "unknown key '%s'%s", key, channel ?
          " (name, uri, source, metric, threshold, relative-threshold, "
          "window, max-blurry-gap, tiles, roi-types, compare-with, "
          "black-pixel-threshold, black-ratio, freeze-noise, alarms)" :
          " (in defaults: the channel keys but name, uri, source and "
          "compare-with)");
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

gboolean
monitor_config_load (const gchar * path, GPtrArray * channels,
    GError ** error)
{
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_node_t *root, *chans = NULL, *defaults = NULL;
  MonitorChannelConfig base;
  Ctx x = { path, &doc, error };
  gboolean ok = TRUE;
  FILE *f = fopen (path, "rb");

  if (!f) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot read the configuration file %s: %s", path,
        g_strerror (errno));
    return FALSE;
  }
  yaml_parser_initialize (&parser);
  yaml_parser_set_input_file (&parser, f);
  if (!yaml_parser_load (&parser, &doc)) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "%s:%zu: not valid YAML: %s%s%s", path,
        (parser.problem_mark.line ? parser.problem_mark.line :
            parser.context_mark.line) + 1,
        parser.problem ? parser.problem : "syntax error",
        parser.context ? " " : "", parser.context ? parser.context : "");
    yaml_parser_delete (&parser);
    fclose (f);
    return FALSE;
  }
  yaml_parser_delete (&parser);
  fclose (f);

  root = yaml_document_get_root_node (&doc);
  if (!root || root->type != YAML_MAPPING_NODE) {
    ok = fail (&x, root, "a mapping with 'channels' (and optionally "
        "'defaults') expected");
    goto done;
  }
  for (yaml_node_pair_t * p = root->data.mapping.pairs.start;
      p < root->data.mapping.pairs.top && ok; p++) {
    yaml_node_t *kn = yaml_document_get_node (&doc, p->key);
    const gchar *key = scalar (&x, kn, "key");

    if (!key)
      ok = FALSE;
    else if (g_str_equal (key, "channels"))
      chans = yaml_document_get_node (&doc, p->value);
    else if (g_str_equal (key, "defaults"))
      defaults = yaml_document_get_node (&doc, p->value);
    else
      ok = fail (&x, kn, "unknown key '%s' (channels, defaults)", key);
  }
  if (!ok)
    goto done;
  monitor_channel_config_defaults (&base);
  if (defaults && !read_settings (&x, defaults, &base, FALSE)) {
    ok = FALSE;
    goto done_base;
  }
  if (!chans || chans->type != YAML_SEQUENCE_NODE) {
    ok = fail (&x, chans ? chans : root, "'channels' must be a list of "
        "channels (- name: ..., uri: ...)");
    goto done_base;
  }
  for (yaml_node_item_t * i = chans->data.sequence.items.start;
      i < chans->data.sequence.items.top && ok; i++) {
    yaml_node_t *cn = yaml_document_get_node (&doc, *i);
    MonitorChannelConfig *c = monitor_channel_config_copy (&base);
    gchar *where;

    c->line = line_of (cn);
    ok = read_settings (&x, cn, c, TRUE);
    if (ok && !c->name && c->uri)
      c->name = monitor_channel_name_from_uri (c->uri);
    where = g_strdup_printf ("%s:%u", path, c->line);
    if (ok)
      ok = monitor_channel_config_check (c, where, error);
    g_free (where);
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
  return ok;
}
