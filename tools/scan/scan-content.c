/* sharpness-scan's content states: --detect and the parameters of black,
 * freeze and flat frames, as the first cudasharpness element takes them,
 * and the settings of the state machine that turns what the element's meta
 * says into segments (scan-frames.c).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The element is the one source of the defaults and the ranges: an option
 * not given keeps the element's default, an option given is checked
 * against the element's property, and what the element then holds is read
 * back into the settings (the JSON's, the report's, the state machine's).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "scan-setup.h"

/* One option and the element property it sets. */
typedef struct
{
  const gchar *option, *property;
  gboolean seconds;             /* given in s, the property in ns */
} ContentOption;

static const ContentOption content_options[SCAN_CONTENT_N_OPTIONS] = {
  {"--black-pixel-threshold", "black-pixel-threshold", FALSE},
  {"--black-ratio", "black-ratio", FALSE},
  {"--black-min-duration", "black-min-duration", TRUE},
  {"--freeze-noise", "freeze-noise", FALSE},
  {"--freeze-min-duration", "freeze-min-duration", TRUE},
  {"--flat-threshold", "flat-threshold", FALSE},
};

/* @v into the property @o of @e, checked against its range: FALSE (with
 * @error naming the option, the value and the range) when outside. */
static gboolean
set_checked (GstElement * e, const ContentOption * o, gdouble v,
    GError ** error)
{
  GParamSpec *p = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      o->property);
  GValue value = G_VALUE_INIT;
  gdouble lo, hi;

  g_return_val_if_fail (p != NULL, FALSE);
  if (G_IS_PARAM_SPEC_UINT64 (p)) {
    lo = G_PARAM_SPEC_UINT64 (p)->minimum / (o->seconds ? 1e9 : 1.0);
    hi = G_PARAM_SPEC_UINT64 (p)->maximum / (o->seconds ? 1e9 : 1.0);
  } else {
    lo = G_PARAM_SPEC_DOUBLE (p)->minimum;
    hi = G_PARAM_SPEC_DOUBLE (p)->maximum;
  }
  if (!(isfinite (v) && v >= lo && v <= hi)) {
    /* A bound no one reaches (centuries of ns) is no help in the text. */
    if (hi > 1e9)
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "%s %g: must be a number%s >= %g", o->option, v,
          o->seconds ? " of seconds" : "", lo);
    else
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "%s %g: must be a number%s from %g to %g", o->option, v,
          o->seconds ? " of seconds" : "", lo, hi);
    return FALSE;
  }
  g_value_init (&value, G_PARAM_SPEC_VALUE_TYPE (p));
  if (G_IS_PARAM_SPEC_UINT64 (p))
    g_value_set_uint64 (&value, (guint64) (v * (o->seconds ? 1e9 : 1.0) +
            0.5));
  else
    g_value_set_double (&value, v);
  g_object_set_property (G_OBJECT (e), o->property, &value);
  g_value_unset (&value);
  return TRUE;
}

gboolean
scan_content_resolve (ScanSettings * s, const gdouble values[], GError **
    error)
{
  GstElement *e = gst_element_factory_make ("cudasharpness", NULL);
  gboolean ok = TRUE;

  if (!e) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "the cudasharpness element is missing (is the gst-sharpness plugin "
        "installed, or GST_PLUGIN_PATH set?)");
    return FALSE;
  }
  for (guint i = 0; i < SCAN_CONTENT_N_OPTIONS && ok; i++)
    if (!isnan (values[i]))
      ok = set_checked (e, &content_options[i], values[i], error);
  if (ok) {
    /* --detect names kinds of segments; flat frames, a state without
     * segments, are always kept out of the blur rule, as the element
     * does by default (--flat-threshold 0 turns that off). */
    g_object_set (e, "detect", s->detect | SHARPNESS_DETECT_FLAT, NULL);
    g_object_get (e, "detect", &s->detect,
        "black-pixel-threshold", &s->black_pixel_threshold,
        "black-ratio", &s->black_ratio,
        "black-min-duration", &s->black_min_duration,
        "freeze-noise", &s->freeze_noise,
        "freeze-min-duration", &s->freeze_min_duration,
        "flat-threshold", &s->flat_threshold, NULL);
  }
  gst_object_unref (e);
  return ok;
}

void
scan_content_configure_element (GstElement * e, const ScanSettings * s,
    gboolean rule)
{
  /* Only the first element's states count: the others measure nothing
   * besides their score. */
  if (!rule) {
    g_object_set (e, "detect", 0, NULL);
    return;
  }
  g_object_set (e, "detect", s->detect,
      "black-pixel-threshold", s->black_pixel_threshold,
      "black-ratio", s->black_ratio,
      "black-min-duration", s->black_min_duration,
      "freeze-noise", s->freeze_noise,
      "freeze-min-duration", s->freeze_min_duration,
      "flat-threshold", s->flat_threshold, NULL);
}

void
scan_content_settings (const ScanSettings * s, gint fps_n, gint fps_d,
    SharpnessContentSettings * c)
{
  /* As the element builds them from its properties and caps. */
  sharpness_content_settings_init (c);
  c->detect = s->detect;
  c->black.picture_black_ratio_th = s->black_ratio;
  c->black.min_duration = s->black_min_duration;
  c->freeze.noise = sharpness_freeze_noise_from_db (s->freeze_noise);
  c->freeze.min_duration = s->freeze_min_duration;
  if (fps_n > 0 && fps_d > 0) {
    c->freeze.fps_n = fps_n;
    c->freeze.fps_d = fps_d;
  }
  c->flat_threshold = s->flat_threshold;
  /* The state machine's 0 turns blurry segments off; the scan's 0 means
   * every run: 1 ns is every run whose frames have a duration. */
  c->min_blurry_duration = MAX ((guint64) (s->min_duration * GST_SECOND +
          0.5), 1);
  c->max_blurry_gap = s->max_gap;
}

gchar *
scan_content_detect_list (guint detect)
{
  GString *out = g_string_new (NULL);

  if (detect & SHARPNESS_DETECT_BLACK)
    g_string_append (out, "black");
  if (detect & SHARPNESS_DETECT_FREEZE)
    g_string_append_printf (out, "%sfreeze", out->len ? "," : "");
  if (!out->len)
    g_string_append (out, "none");
  return g_string_free (out, FALSE);
}
