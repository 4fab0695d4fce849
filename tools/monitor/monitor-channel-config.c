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

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "monitor.h"
#include "sharpness-tool-rule.h"
#include "vmaf.h"

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
  for (gint k = 0; k < MONITOR_N_KINDS; k++)
    c->kinds[k] = monitor_kinds[k].defaults;
  c->transport.enabled = TRUE;
  c->transport.pat_interval = 0.5;
  c->transport.pmt_interval = 0.5;
  c->transport.pid_interval = 5.0;
  c->transport.pcr_repetition = 0.04;
  c->transport.pcr_discontinuity = 0.1;
  c->transport.pts_interval = 0.7;
}

/* The strings a configuration owns: one list for the copy and the free,
 * so that a string added to the struct cannot be copied and not freed, or
 * freed twice. */
static const gsize config_strings[] = {
  G_STRUCT_OFFSET (MonitorChannelConfig, name),
  G_STRUCT_OFFSET (MonitorChannelConfig, uri),
  G_STRUCT_OFFSET (MonitorChannelConfig, source),
  G_STRUCT_OFFSET (MonitorChannelConfig, tiles),
  G_STRUCT_OFFSET (MonitorChannelConfig, roi_types),
  G_STRUCT_OFFSET (MonitorChannelConfig, compare_with),
  G_STRUCT_OFFSET (MonitorChannelConfig, vmaf_model),
};

#define CONFIG_STRING(c, i) G_STRUCT_MEMBER (gchar *, (c), config_strings[i])

MonitorChannelConfig *
monitor_channel_config_copy (const MonitorChannelConfig * c)
{
  MonitorChannelConfig *n = g_new (MonitorChannelConfig, 1);

  *n = *c;
  for (guint i = 0; i < G_N_ELEMENTS (config_strings); i++)
    CONFIG_STRING (n, i) = g_strdup (CONFIG_STRING (c, i));
  return n;
}

void
monitor_channel_config_free (MonitorChannelConfig * c)
{
  if (!c)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (config_strings); i++)
    g_free (CONFIG_STRING (c, i));
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

/* The first bad value found: FALSE, @error saying what @key (the
 * configuration key it comes from, so that the configuration file can
 * name that key's line; NULL where no one key is) must be. */
static gboolean
bad (GError ** error, const gchar ** key_out, const gchar * key,
    const gchar * what, const gchar * range)
{
  if (key_out)
    *key_out = key;
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "%s must be %s", what ? what : key, range);
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

/* The channel's VMAF model, loaded as cudacompare will load it at the
 * start (the same rule for names and paths: vmaf.h), so that a wrong name
 * or a bad file is refused with the configuration, not by a channel
 * restarting for ever. */
static gboolean
vmaf_model_valid (const gchar * model, const gchar ** key, GError ** error)
{
  gchar why[512];
  CompareVmafModel *m = compare_vmaf_model_load_named (model, 0, why,
      sizeof (why));

  if (m) {
    compare_vmaf_model_free (m);
    return TRUE;
  }
  if (key)
    *key = "vmaf-model";
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "vmaf-model '%s' cannot be used: %s", model, why);
  return FALSE;
}

/* The key of @field of alarm kind @kind, "alarms: KIND: FIELD" (interned:
 * the set is small and fixed). */
static const gchar *
alarm_key (gint kind, const gchar * field)
{
  gchar *k = g_strdup_printf ("alarms: %s: %s", monitor_kinds[kind].name, field);
  const gchar *key = g_intern_string (k);

  g_free (k);
  return key;
}

gboolean
monitor_channel_config_validate (const MonitorChannelConfig * c,
    const gchar ** key, GError ** error)
{
  if (key)
    *key = NULL;
  if (!c->name || !*c->name)
    return bad (error, key, "name", "the channel's name",
        "given and not empty");
  for (const gchar * p = c->name; *p; p++)
    if ((guchar) * p < 0x20 || *p == '/')
      return bad (error, key, "name", "a channel name", "free of '/' and "
          "control characters");
  if (strlen (c->name) > 128)
    return bad (error, key, "name", "a channel name",
        "at most 128 bytes long");
  if (!c->uri == !c->source)
    return bad (error, key, NULL, "a channel", "given one of uri or source");
  if (c->uri && !monitor_uri_scheme_allowed (c->uri)) {
    if (key)
      *key = "uri";
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "unknown URI scheme in '%s': use udp://, rtp://, srt://, "
        "rtsp://, http(s):// (HLS) or file://", c->uri);
    return FALSE;
  }
  if (c->uri) {
    gchar *uri;

    if (!monitor_uri_for_source (c->uri, &uri, error)) {
      if (key)
        *key = "uri";
      return FALSE;
    }
    g_free (uri);
  }
  if (!(c->threshold >= 0) || !isfinite (c->threshold))
    return bad (error, key, "threshold", NULL, ">= 0 (0: off)");
  if (!(c->relative_threshold >= 0 && c->relative_threshold <= 1))
    return bad (error, key, "relative-threshold", NULL, "in [0, 1] (0: off)");
  if (c->window < 1 || c->window > 10000)
    return bad (error, key, "window", NULL, "in [1, 10000]");
  if (c->max_blurry_gap > 10000)
    return bad (error, key, "max-blurry-gap", NULL, "in [0, 10000]");
  if (!tiles_valid (c->tiles))
    return bad (error, key, "tiles", NULL, "COLSxROWS, 1 to 64 each, or off");
  if (!(c->black_pixel_threshold >= 0 && c->black_pixel_threshold <= 1))
    return bad (error, key, "black-pixel-threshold", NULL, "in [0, 1]");
  if (!(c->black_ratio >= 0 && c->black_ratio <= 1))
    return bad (error, key, "black-ratio", NULL, "in [0, 1]");
  if (!(c->freeze_noise >= -200 && c->freeze_noise <= 0))
    return bad (error, key, "freeze-noise", NULL, "in [-200, 0] dB");
  for (gint k = 0; k < MONITOR_N_KINDS; k++) {
    const MonitorKindSettings *ks = &c->kinds[k];

    if (!(ks->onset >= 0 && ks->onset <= 86400))
      return bad (error, key, alarm_key (k, "onset"), NULL,
          "in [0, 86400] s");
    if (!(ks->clear >= 0 && ks->clear <= 86400))
      return bad (error, key, alarm_key (k, "clear"), NULL,
          "in [0, 86400] s");
    if (k == MONITOR_KIND_NO_SIGNAL && ks->onset < 0.1)
      return bad (error, key, alarm_key (k, "onset"), NULL,
          "at least 0.1 s");
  }
  if (!(c->kinds[MONITOR_KIND_SILENCE].level <= 0))
    return bad (error, key, alarm_key (MONITOR_KIND_SILENCE, "level"), NULL,
        "<= 0 dBFS");
  if (!(c->kinds[MONITOR_KIND_SSIM_DROP].level >= 0 &&
          c->kinds[MONITOR_KIND_SSIM_DROP].level <= 1))
    return bad (error, key, alarm_key (MONITOR_KIND_SSIM_DROP, "level"),
        NULL, "in [0, 1]");
  /* Loudness levels between BS.1770's absolute gate and full scale; a
   * true peak up to +6 dBTP (inter-sample peaks of a clipped signal). */
  for (gint k = MONITOR_KIND_LOUDNESS_HIGH; k <= MONITOR_KIND_LOUDNESS_LOW;
      k++)
    if (!(c->kinds[k].level >= -70 && c->kinds[k].level <= 0))
      return bad (error, key, alarm_key (k, "level"), NULL,
          "in [-70, 0] LUFS");
  if (!(c->kinds[MONITOR_KIND_TRUE_PEAK].level >= -60 &&
          c->kinds[MONITOR_KIND_TRUE_PEAK].level <= 6))
    return bad (error, key, alarm_key (MONITOR_KIND_TRUE_PEAK, "level"),
        NULL, "in [-60, 6] dBTP");
  if (!(c->kinds[MONITOR_KIND_PSNR_DROP].level >= 0))
    return bad (error, key, alarm_key (MONITOR_KIND_PSNR_DROP, "level"),
        NULL, ">= 0 dB");
  if (!(c->kinds[MONITOR_KIND_VMAF_DROP].level >= 0 &&
          c->kinds[MONITOR_KIND_VMAF_DROP].level <= 100))
    return bad (error, key, alarm_key (MONITOR_KIND_VMAF_DROP, "level"),
        NULL, "in [0, 100] (VMAF)");
  if (c->compare_vmaf && c->vmaf_model && !vmaf_model_valid (c->vmaf_model,
          key, error))
    return FALSE;
  {
    /* TR 101 290's limits are fractions of a second (PID_error's the
     * user's, of seconds to minutes); above a minute no indicator would
     * ever be raised, at 1 ms every packet's gap would be one. */
    static const struct
    {
      const gchar *key;
      gsize offset;
      gdouble max;
    } limits[] = {
      {"transport: pat-interval", G_STRUCT_OFFSET (MonitorTransportConfig,
              pat_interval), 60},
      {"transport: pmt-interval", G_STRUCT_OFFSET (MonitorTransportConfig,
              pmt_interval), 60},
      {"transport: pid-interval", G_STRUCT_OFFSET (MonitorTransportConfig,
              pid_interval), 3600},
      {"transport: pcr-repetition", G_STRUCT_OFFSET (MonitorTransportConfig,
              pcr_repetition), 60},
      {"transport: pcr-discontinuity",
          G_STRUCT_OFFSET (MonitorTransportConfig, pcr_discontinuity), 60},
      {"transport: pts-interval", G_STRUCT_OFFSET (MonitorTransportConfig,
              pts_interval), 60},
    };

    for (guint i = 0; i < G_N_ELEMENTS (limits); i++) {
      gdouble v = G_STRUCT_MEMBER (gdouble, &c->transport, limits[i].offset);

      if (!(v >= 0.001 && v <= limits[i].max))
        return bad (error, key, limits[i].key, NULL, limits[i].max > 60 ?
            "in [0.001, 3600] s" : "in [0.001, 60] s");
    }
  }
  return TRUE;
}

gboolean
monitor_channel_config_check (const MonitorChannelConfig * c,
    const gchar * where, GError ** error)
{
  if (monitor_channel_config_validate (c, NULL, error))
    return TRUE;
  if (where)
    g_prefix_error (error, "%s: ", where);
  return FALSE;
}

/* A source fragment is built as the channel's pipeline builds it
 * (monitor-pipeline.c: a bin, its free pads ghosted, feeding decodebin3),
 * without being started: a missing element, a bad property or link, or
 * a fragment that cannot feed decodebin3 would otherwise restart the
 * channel for ever. */
static gboolean
check_fragment (const gchar * source, GError ** error)
{
  GError *e = NULL;
  GstElement *bin;
  GstPad *src, *sink;
  gboolean ok;

  bin = gst_parse_bin_from_description_full (source, TRUE, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, &e);
  if (!bin || e) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "source '%s': %s", source, e ? e->message : "not a GStreamer "
        "pipeline fragment");
    g_clear_error (&e);
    if (bin)
      gst_object_unref (gst_object_ref_sink (bin));
    return FALSE;
  }
  gst_object_ref_sink (bin);
  src = gst_element_get_static_pad (bin, "src");
  sink = gst_element_get_static_pad (bin, "sink");
  ok = src && !sink;
  if (!src)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "source '%s' cannot feed decodebin3: its last element has no free "
        "src pad (a demuxer's pads appear only once it plays: leave the "
        "demuxing to decodebin3)", source);
  else if (sink)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "source '%s': its first element waits for input (a free sink pad): "
        "a source fragment starts with a source element", source);
  g_clear_object (&src);
  g_clear_object (&sink);
  gst_object_unref (bin);
  return ok;
}

/* A file:// channel's file, which at run time would fail as a network
 * source does (restarts for ever) when it is missing. */
static gboolean
check_file (const gchar * uri, GError ** error)
{
  gchar *path = g_filename_from_uri (uri, NULL, NULL);
  GStatBuf st;
  gboolean ok = FALSE;

  if (!path)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "'%s' is not a local file URI (file:///path)", uri);
  else if (g_stat (path, &st) != 0)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "the file %s (%s): %s", path, uri, g_strerror (errno));
  else if (S_ISDIR (st.st_mode))
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR,
        "the file %s (%s) is a directory", path, uri);
  else if (g_access (path, R_OK) != 0)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "the file %s (%s) is not readable: %s", path, uri,
        g_strerror (errno));
  else
    ok = TRUE;
  g_free (path);
  return ok;
}

gboolean
monitor_channel_config_check_input (const MonitorChannelConfig * c,
    const gchar * where, GError ** error)
{
  gchar *scheme = c->uri ? g_uri_parse_scheme (c->uri) : NULL;
  gboolean ok = TRUE;

  if (c->source)
    ok = check_fragment (c->source, error);
  else if (scheme && !g_ascii_strcasecmp (scheme, "file"))
    ok = check_file (c->uri, error);
  g_free (scheme);
  if (!ok && where)
    g_prefix_error (error, "%s: ", where);
  return ok;
}
