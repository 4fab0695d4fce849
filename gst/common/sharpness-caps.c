/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-caps.h"

#ifdef HAVE_CUDA
#define CUDA_BUILD TRUE
#define READABLE_MEMORY "system memory and " SHARPNESS_CAPS_FEATURE_CUDA
#else
#define CUDA_BUILD FALSE
#define READABLE_MEMORY "system memory only (built without CUDA support)"
#endif

GST_DEBUG_CATEGORY_STATIC (sharpness_caps_debug);
#define GST_CAT_DEFAULT sharpness_caps_debug

gchar *
sharpness_caps_explain_refusal (const gchar * element_name,
    SharpnessFormatUse use, GstCaps * caps, GstCaps * templ)
{
  GstStructure *s;
  GstCapsFeatures *f;
  const gchar *format;
  gboolean cuda;

  if (!caps || gst_caps_is_empty (caps) || gst_caps_is_any (caps))
    return NULL;
  if (gst_caps_can_intersect (caps, templ))
    return NULL;

  s = gst_caps_get_structure (caps, 0);
  f = gst_caps_get_features (caps, 0);
  cuda = sharpness_caps_are_cuda (caps);
  if (!gst_structure_has_name (s, "video/x-raw"))
    return g_strdup_printf ("%s analyses raw video (video/x-raw), not %s",
        element_name, gst_structure_get_name (s));
  if (f && !gst_caps_features_is_any (f) && !(cuda && CUDA_BUILD) &&
      !gst_caps_features_is_equal (f, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)) {
    gchar *features = gst_caps_features_to_string (f);
    gchar *text = g_strdup_printf ("%s cannot read buffers with caps "
        "features %s; it reads " READABLE_MEMORY, element_name, features);
    g_free (features);
    return text;
  }

  format = gst_structure_get_string (s, "format");
  if (!format)
    return NULL;
  return g_strdup_printf ("%s does not support video format %s in %s "
      "memory; supported formats: %s", element_name, format,
      cuda ? "CUDA" : "system", sharpness_formats_list (use, cuda));
}

static const gchar *
element_name (SharpnessCapsRefusal * r)
{
  GstElementFactory *factory = gst_element_get_factory (r->element);

  return factory ? GST_OBJECT_NAME (factory) : GST_OBJECT_NAME (r->element);
}

static GstPadProbeReturn
sink_event_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  SharpnessCapsRefusal *r = user_data;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  GstCaps *caps = NULL;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    gst_event_parse_caps (event, &caps);
    GST_OBJECT_LOCK (r->element);
    gst_caps_replace (&r->event_caps, caps);
    GST_OBJECT_UNLOCK (r->element);
  }
  return GST_PAD_PROBE_OK;
}

void
sharpness_caps_refusal_init (SharpnessCapsRefusal * r, GstElement * element,
    GstPad * sinkpad, SharpnessFormatUse use)
{
  GST_DEBUG_CATEGORY_INIT (sharpness_caps_debug, "sharpnesscaps", 0,
      "caps refusals of the sharpness elements");
  *r = (SharpnessCapsRefusal) {
  .element = element,.pad = sinkpad,.use = use};
  /* GstPad checks a CAPS event with an accept-caps query before the
   * element's event handler sees it: the probe runs first. */
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
      sink_event_probe, r, NULL);
}

void
sharpness_caps_refusal_clear (SharpnessCapsRefusal * r)
{
  g_clear_pointer (&r->refusal, g_free);
  gst_caps_replace (&r->event_caps, NULL);
}

void
sharpness_caps_refusal_reset (SharpnessCapsRefusal * r)
{
  GST_OBJECT_LOCK (r->element);
  r->posted = FALSE;
  GST_OBJECT_UNLOCK (r->element);
  r->negotiated = FALSE;
}

void
sharpness_caps_refusal_note (SharpnessCapsRefusal * r, GstCaps * caps)
{
  GstCaps *templ = gst_pad_get_pad_template_caps (r->pad);
  gchar *why = sharpness_caps_explain_refusal (element_name (r), r->use, caps,
      templ);

  gst_caps_unref (templ);
  if (!why)
    return;
  GST_DEBUG_OBJECT (r->element, "refusing %" GST_PTR_FORMAT ": %s", caps,
      why);
  GST_OBJECT_LOCK (r->element);
  g_free (r->refusal);
  r->refusal = why;
  GST_OBJECT_UNLOCK (r->element);
}

static void
post (SharpnessCapsRefusal * r)
{
  gchar *why = NULL;

  GST_OBJECT_LOCK (r->element);
  if (!r->posted && r->refusal) {
    why = g_strdup (r->refusal);
    r->posted = TRUE;
  }
  GST_OBJECT_UNLOCK (r->element);
  if (!why)
    return;
  GST_ELEMENT_ERROR (r->element, CORE, NEGOTIATION, ("%s", why),
      ("insert videoconvert before %s to analyse other formats",
          element_name (r)));
  g_free (why);
}

void
sharpness_caps_refusal_accept_failed (SharpnessCapsRefusal * r,
    GstPadDirection direction, GstCaps * caps)
{
  gboolean from_event;

  sharpness_caps_refusal_note (r, caps);
  GST_OBJECT_LOCK (r->element);
  from_event = direction == GST_PAD_SINK && caps == r->event_caps;
  GST_OBJECT_UNLOCK (r->element);
  if (from_event)
    post (r);
}

void
sharpness_caps_refusal_caps_query (SharpnessCapsRefusal * r,
    GstPadDirection direction, GstQuery * query)
{
  GstCaps *filter = NULL, *result = NULL;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CAPS || direction != GST_PAD_SINK)
    return;
  gst_query_parse_caps (query, &filter);
  gst_query_parse_caps_result (query, &result);
  if (filter && result && gst_caps_is_empty (result))
    sharpness_caps_refusal_note (r, filter);
}

void
sharpness_caps_refusal_set_caps (SharpnessCapsRefusal * r, GstCaps * caps,
    gboolean accepted)
{
  r->negotiated = accepted;
  if (!accepted) {
    gchar *str = gst_caps_to_string (caps);

    GST_ELEMENT_ERROR (r->element, CORE, NEGOTIATION,
        ("%s cannot analyse %s", element_name (r), str), (NULL));
    g_free (str);
    GST_OBJECT_LOCK (r->element);
    r->posted = TRUE;
    GST_OBJECT_UNLOCK (r->element);
    return;
  }
  GST_OBJECT_LOCK (r->element);
  r->posted = FALSE;
  g_clear_pointer (&r->refusal, g_free);
  gst_caps_replace (&r->event_caps, NULL);
  GST_OBJECT_UNLOCK (r->element);
}

void
sharpness_caps_refusal_buffer (SharpnessCapsRefusal * r)
{
  if (!r->negotiated)
    post (r);
}
