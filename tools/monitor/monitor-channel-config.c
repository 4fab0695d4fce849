/* sharpness-monitor: a channel's settings: their defaults, its name when
 * only a URI is given, the URI schemes taken, and the checks of values
 * (each bad value named with its valid range).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "monitor.h"
#include "sharpness-tool-rule.h"

static const gchar *kind_names[MONITOR_N_KINDS] = {
  "blur", "black", "freeze", "silence", "no-signal", "psnr-drop",
  "ssim-drop"
};

/* Onsets: the scan tool's minimum blurry duration; FFmpeg's d for black
 * and freeze (what blackdetect and freezedetect report by default).  The
 * element's own stretches end exactly (its max-blurry-gap is blur's
 * hysteresis), so their hold-off is 0; the measured levels get one second
 * so that a level hovering at its limit makes one alarm, not many. */
static const MonitorKindSettings kind_defaults[MONITOR_N_KINDS] = {
  [MONITOR_KIND_BLUR] = {TRUE, SHARPNESS_TOOL_DEFAULT_MIN_DURATION, 0, 0},
  [MONITOR_KIND_BLACK] = {TRUE, 2.0, 0, 0},
  [MONITOR_KIND_FREEZE] = {TRUE, 2.0, 0, 0},
  [MONITOR_KIND_SILENCE] = {TRUE, 2.0, 1.0, -60.0},
  [MONITOR_KIND_NO_SIGNAL] = {TRUE, 2.0, 0, 0},
  [MONITOR_KIND_PSNR_DROP] = {TRUE, 1.0, 1.0, 30.0},
  [MONITOR_KIND_SSIM_DROP] = {TRUE, 1.0, 1.0, 0.9},
};

const gchar *
monitor_kind_name (MonitorKind kind)
{
  return kind < MONITOR_N_KINDS ? kind_names[kind] : "unknown";
}

gint
monitor_kind_from_name (const gchar * name)
{
  for (gint k = 0; k < MONITOR_N_KINDS; k++)
    if (g_strcmp0 (name, kind_names[k]) == 0)
      return k;
  return -1;
}

/* The blur effect is normalised to [0, 1]: an absolute threshold means
 * the same on every picture; other metrics' scores depend on the content,
 * and only the relative rule does. */
void
monitor_channel_config_set_metric (MonitorChannelConfig * c, gint metric)
{
  gboolean blur_effect = metric == sharpness_metric_from_nick ("blur-effect");

  c->metric = (SharpnessMetric) metric;
  c->threshold = blur_effect ? SHARPNESS_TOOL_BLUR_EFFECT_THRESHOLD : 0;
  c->relative_threshold = blur_effect ? SHARPNESS_TOOL_BLUR_EFFECT_RELATIVE :
      SHARPNESS_TOOL_DEFAULT_RELATIVE;
}

void
monitor_channel_config_defaults (MonitorChannelConfig * c)
{
  gint m = sharpness_metric_from_nick (SHARPNESS_TOOL_DEFAULT_METRIC);

  if (m < 0)
    m = sharpness_metric_from_nick (SHARPNESS_TOOL_FALLBACK_METRIC);
  memset (c, 0, sizeof (*c));
  monitor_channel_config_set_metric (c, (SharpnessMetric) m);
  c->window = SHARPNESS_TOOL_DEFAULT_WINDOW;
  c->max_blurry_gap = SHARPNESS_TOOL_DEFAULT_MAX_GAP;
  c->black_pixel_threshold = 0.10;
  c->black_ratio = 0.98;
  c->freeze_noise = -60.0;
  memcpy (c->kinds, kind_defaults, sizeof (kind_defaults));
}

MonitorChannelConfig *
monitor_channel_config_copy (const MonitorChannelConfig * c)
{
  MonitorChannelConfig *n = g_new (MonitorChannelConfig, 1);

  *n = *c;
  n->name = g_strdup (c->name);
  n->uri = g_strdup (c->uri);
  n->source = g_strdup (c->source);
  n->tiles = g_strdup (c->tiles);
  n->roi_types = g_strdup (c->roi_types);
  n->compare_with = g_strdup (c->compare_with);
  return n;
}

void
monitor_channel_config_free (MonitorChannelConfig * c)
{
  if (!c)
    return;
  g_free (c->name);
  g_free (c->uri);
  g_free (c->source);
  g_free (c->tiles);
  g_free (c->roi_types);
  g_free (c->compare_with);
  g_free (c);
}

gchar *
monitor_channel_name_from_uri (const gchar * uri)
{
  gchar *scheme = g_uri_parse_scheme (uri);
  gchar *name = NULL;

  if (!scheme || g_str_equal (scheme, "file")) {
    gchar *path = scheme ? g_filename_from_uri (uri, NULL, NULL) :
        g_strdup (uri);
    name = path ? g_path_get_basename (path) : NULL;
    g_free (path);
  } else {
    GUri *u = g_uri_parse (uri, G_URI_FLAGS_NON_DNS | G_URI_FLAGS_PARSE_RELAXED,
        NULL);
    const gchar *host = u ? g_uri_get_host (u) : NULL;

    if (u && g_uri_get_port (u) > 0)
      name = g_strdup_printf ("%s:%d", host && *host ? host : "0.0.0.0",
          g_uri_get_port (u));
    else if (host && *host)
      name = g_strdup (host);
    if (u && name && (g_str_has_prefix (scheme, "http") ||
            g_str_has_prefix (scheme, "rtsp"))) {
      /* Several streams of one server differ by their path. */
      const gchar *path = g_uri_get_path (u);
      if (path && *path && !g_str_equal (path, "/")) {
        /* Names go in URLs as one path segment: no '/'. */
        gchar *n = g_strconcat (name, path, NULL);
        g_strdelimit (n + strlen (name), "/", '_');
        g_free (name);
        name = n;
      }
    }
    if (u)
      g_uri_unref (u);
  }
  g_free (scheme);
  return name ? name : g_strdup (uri);
}

gboolean
monitor_uri_scheme_allowed (const gchar * uri)
{
  static const gchar *schemes[] = { "udp", "rtp", "srt", "rtsp", "rtsps",
    "rtspt", "http", "https", "file"
  };
  gchar *scheme = uri ? g_uri_parse_scheme (uri) : NULL;
  gboolean ok = FALSE;

  for (guint i = 0; scheme && i < G_N_ELEMENTS (schemes); i++)
    ok |= g_ascii_strcasecmp (scheme, schemes[i]) == 0;
  g_free (scheme);
  return ok;
}

static gboolean
bad (GError ** error, const gchar * where, const gchar * what,
    const gchar * range)
{
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "%s%s%s must be %s", where ? where : "", where ? ": " : "", what,
      range);
  return FALSE;
}

static gboolean
tiles_valid (const gchar * tiles)
{
  guint cols, rows;
  gchar end;

  if (!tiles || !*tiles || g_str_equal (tiles, "off"))
    return TRUE;
  return sscanf (tiles, "%ux%u%c", &cols, &rows, &end) == 2 && cols >= 1
      && cols <= 64 && rows >= 1 && rows <= 64;
}

gboolean
monitor_channel_config_check (const MonitorChannelConfig * c,
    const gchar * where, GError ** error)
{
  if (!c->name || !*c->name)
    return bad (error, where, "the channel's name", "given and not empty");
  for (const gchar * p = c->name; *p; p++)
    if ((guchar) * p < 0x20 || *p == '/')
      return bad (error, where, "a channel name", "free of '/' and control "
          "characters");
  if (strlen (c->name) > 128)
    return bad (error, where, "a channel name", "at most 128 bytes long");
  if (!c->uri == !c->source)
    return bad (error, where, "a channel", "given one of uri or source");
  if (c->uri && !monitor_uri_scheme_allowed (c->uri)) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "%s%sunknown URI scheme in '%s': use udp://, rtp://, srt://, "
        "rtsp://, http(s):// (HLS) or file://", where ? where : "",
        where ? ": " : "", c->uri);
    return FALSE;
  }
  if (!(c->threshold >= 0) || !isfinite (c->threshold))
    return bad (error, where, "threshold", ">= 0 (0: off)");
  if (!(c->relative_threshold >= 0 && c->relative_threshold <= 1))
    return bad (error, where, "relative-threshold", "in [0, 1] (0: off)");
  if (c->window < 1 || c->window > 10000)
    return bad (error, where, "window", "in [1, 10000]");
  if (c->max_blurry_gap > 10000)
    return bad (error, where, "max-blurry-gap", "in [0, 10000]");
  if (!tiles_valid (c->tiles))
    return bad (error, where, "tiles", "COLSxROWS, 1 to 64 each, or off");
  if (!(c->black_pixel_threshold >= 0 && c->black_pixel_threshold <= 1))
    return bad (error, where, "black-pixel-threshold", "in [0, 1]");
  if (!(c->black_ratio >= 0 && c->black_ratio <= 1))
    return bad (error, where, "black-ratio", "in [0, 1]");
  if (!(c->freeze_noise >= -200 && c->freeze_noise <= 0))
    return bad (error, where, "freeze-noise", "in [-200, 0] dB");
  for (gint k = 0; k < MONITOR_N_KINDS; k++) {
    const MonitorKindSettings *ks = &c->kinds[k];
    gchar *what;
    gboolean ok = TRUE;

    if (!(ks->onset >= 0 && ks->onset <= 86400)) {
      what = g_strdup_printf ("alarms: %s: onset", kind_names[k]);
      ok = bad (error, where, what, "in [0, 86400] s");
    } else if (!(ks->clear >= 0 && ks->clear <= 86400)) {
      what = g_strdup_printf ("alarms: %s: clear", kind_names[k]);
      ok = bad (error, where, what, "in [0, 86400] s");
    } else if (k == MONITOR_KIND_NO_SIGNAL && ks->onset < 0.1) {
      what = g_strdup_printf ("alarms: %s: onset", kind_names[k]);
      ok = bad (error, where, what, "at least 0.1 s");
    } else {
      what = NULL;
    }
    g_free (what);
    if (!ok)
      return FALSE;
  }
  if (!(c->kinds[MONITOR_KIND_SILENCE].level <= 0))
    return bad (error, where, "alarms: silence: level", "<= 0 dBFS");
  if (!(c->kinds[MONITOR_KIND_SSIM_DROP].level >= 0 &&
          c->kinds[MONITOR_KIND_SSIM_DROP].level <= 1))
    return bad (error, where, "alarms: ssim-drop: level", "in [0, 1]");
  if (!(c->kinds[MONITOR_KIND_PSNR_DROP].level >= 0))
    return bad (error, where, "alarms: psnr-drop: level", ">= 0 dB");
  return TRUE;
}
