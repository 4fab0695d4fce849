/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-element.h"

#define DEFAULT_BACKEND GST_SHARPNESS_BACKEND_AUTO
#define DEFAULT_DEVICE_ID -1
#define DEFAULT_PINNED_POOL TRUE
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_INTERVAL 0

void
sharpness_element_install_properties (GObjectClass * klass, guint first,
    const gchar * message, gboolean device_id_alias)
{
  const GParamFlags playing = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;
  /* Made once per class, for the life of the process. */
  gchar *post_blurb = g_strdup_printf ("Post '%s' element messages (per "
      "frame, or per interval) and a '%s-summary' at EOS", message, message);

  g_object_class_install_property (klass,
      first + SHARPNESS_ELEMENT_PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where to compute: auto (CUDA when usable, else the CPU), cpu or "
          "cuda", GST_TYPE_SHARPNESS_BACKEND, DEFAULT_BACKEND, playing));
  g_object_class_install_property (klass,
      first + SHARPNESS_ELEMENT_PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "CUDA device to use, -1 for any (a context shared by the pipeline "
          "wins)", -1, G_MAXINT, DEFAULT_DEVICE_ID, ready));
  g_object_class_install_property (klass,
      first + SHARPNESS_ELEMENT_PROP_PINNED_POOL,
      g_param_spec_boolean ("pinned-pool", "Pinned pool",
          "Offer upstream a pool of pinned host memory, which the GPU reads "
          "faster", DEFAULT_PINNED_POOL, playing));
  g_object_class_install_property (klass,
      first + SHARPNESS_ELEMENT_PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages", post_blurb,
          DEFAULT_POST_MESSAGES, G_PARAM_READWRITE | G_PARAM_STATIC_NAME |
          G_PARAM_STATIC_NICK | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (klass,
      first + SHARPNESS_ELEMENT_PROP_INTERVAL,
      g_param_spec_uint64 ("interval", "Interval",
          "Time between messages in nanoseconds, 0 for one per frame",
          0, G_MAXUINT64, DEFAULT_INTERVAL, playing));
  if (device_id_alias)
    g_object_class_install_property (klass,
        first + SHARPNESS_ELEMENT_PROP_DEVICE_ID,
        g_param_spec_int ("device-id", "Device ID",
            "Deprecated alias of cuda-device-id", -1, G_MAXINT,
            DEFAULT_DEVICE_ID, ready | G_PARAM_DEPRECATED));
  g_free (post_blurb);
}

void
sharpness_element_settings_init (SharpnessElementSettings * s)
{
  *s = (SharpnessElementSettings) {
    .backend = DEFAULT_BACKEND,
    .device_id = DEFAULT_DEVICE_ID,
    .pinned_pool = DEFAULT_PINNED_POOL,
    .post_messages = DEFAULT_POST_MESSAGES,
    .interval = DEFAULT_INTERVAL,
  };
}

gboolean
sharpness_element_settings_set (SharpnessElementSettings * s, guint first,
    guint prop_id, const GValue * value)
{
  if (prop_id < first || prop_id >= first + SHARPNESS_ELEMENT_N_PROPS)
    return FALSE;
  switch (prop_id - first) {
    case SHARPNESS_ELEMENT_PROP_BACKEND:
      s->backend = g_value_get_enum (value);
      break;
    case SHARPNESS_ELEMENT_PROP_CUDA_DEVICE_ID:
    case SHARPNESS_ELEMENT_PROP_DEVICE_ID:
      s->device_id = g_value_get_int (value);
      break;
    case SHARPNESS_ELEMENT_PROP_PINNED_POOL:
      s->pinned_pool = g_value_get_boolean (value);
      break;
    case SHARPNESS_ELEMENT_PROP_POST_MESSAGES:
      s->post_messages = g_value_get_boolean (value);
      break;
    case SHARPNESS_ELEMENT_PROP_INTERVAL:
      s->interval = g_value_get_uint64 (value);
      break;
  }
  return TRUE;
}

gboolean
sharpness_element_settings_get (const SharpnessElementSettings * s,
    guint first, guint prop_id, GValue * value)
{
  if (prop_id < first || prop_id >= first + SHARPNESS_ELEMENT_N_PROPS)
    return FALSE;
  switch (prop_id - first) {
    case SHARPNESS_ELEMENT_PROP_BACKEND:
      g_value_set_enum (value, s->backend);
      break;
    case SHARPNESS_ELEMENT_PROP_CUDA_DEVICE_ID:
    case SHARPNESS_ELEMENT_PROP_DEVICE_ID:
      g_value_set_int (value, s->device_id);
      break;
    case SHARPNESS_ELEMENT_PROP_PINNED_POOL:
      g_value_set_boolean (value, s->pinned_pool);
      break;
    case SHARPNESS_ELEMENT_PROP_POST_MESSAGES:
      g_value_set_boolean (value, s->post_messages);
      break;
    case SHARPNESS_ELEMENT_PROP_INTERVAL:
      g_value_set_uint64 (value, s->interval);
      break;
  }
  return TRUE;
}

void
sharpness_element_init (SharpnessElement * e, GstElement * element,
    GstDebugCategory * category, SharpnessBackend * cpu,
    SharpnessBackend * cuda, const gchar * verb, const gchar * gerund)
{
  e->element = element;
  sharpness_element_settings_init (&e->settings);
  sharpness_warn_once_init (&e->warned, GST_OBJECT (element));
  sharpness_backend_choice_init (&e->choice, element, category, &e->warned,
      cpu, cuda, verb, gerund);
}

void
sharpness_element_finalize (SharpnessElement * e)
{
  sharpness_backend_choice_clear (&e->choice);
  sharpness_warn_once_clear (&e->warned);
}

void
sharpness_element_get_settings (SharpnessElement * e,
    SharpnessElementSettings * s)
{
  GST_OBJECT_LOCK (e->element);
  *s = e->settings;
  GST_OBJECT_UNLOCK (e->element);
}

gboolean
sharpness_element_start (SharpnessElement * e)
{
  SharpnessElementSettings s;

  sharpness_element_get_settings (e, &s);
  sharpness_warn_once_reset (&e->warned);
  return sharpness_backend_choice_start (&e->choice, s.backend, s.device_id);
}

void
sharpness_element_stop (SharpnessElement * e)
{
  sharpness_backend_choice_stop (&e->choice);
}

void
sharpness_element_set_context (SharpnessElement * e, GstContext * context)
{
  SharpnessElementSettings s;

  sharpness_element_get_settings (e, &s);
  sharpness_backend_set_context (e->choice.gpu, context, s.device_id);
}

gboolean
sharpness_element_query (SharpnessElement * e, GstQuery * query)
{
  return GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      sharpness_backend_handle_context_query (e->choice.gpu, query);
}

gboolean
sharpness_element_propose_allocation (SharpnessElement * e, GstQuery * query)
{
  SharpnessElementSettings s;

  sharpness_element_get_settings (e, &s);
  return s.pinned_pool && s.backend != GST_SHARPNESS_BACKEND_CPU &&
      sharpness_backend_propose_allocation (e->choice.gpu, query);
}

SharpnessBackend *
sharpness_element_run (SharpnessElement * e,
    const SharpnessElementSettings * s, SharpnessBackendRun run,
    SharpnessCpuLimit cpu_limit, gpointer user_data, gpointer job,
    const gchar * what)
{
  return sharpness_backend_choice_run (&e->choice, s->backend, s->device_id,
      run, cpu_limit, user_data, job, what);
}
