/* Errors decodebin drops, reported all the same
 * (sharpness-tool-dropped-errors.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-tool-dropped-errors.h"

/* A dropped error is checked every CHECK_MS, at most MAX_CHECKS times:
 * long enough for decodebin to finish plugging the element in. */
#define CHECK_MS 100
#define MAX_CHECKS 50

/* Set on each watched decodebin: watched_quark (). */
static G_DEFINE_QUARK (sharpness-tool-watched, watched)

typedef struct
{
  GstTracer parent;
} DroppedErrorTracer;

typedef struct
{
  GstTracerClass parent_class;
} DroppedErrorTracerClass;

GType sharpness_tool_dropped_error_tracer_get_type (void);
G_DEFINE_TYPE (DroppedErrorTracer, sharpness_tool_dropped_error_tracer,
    GST_TYPE_TRACER);

static void
sharpness_tool_dropped_error_tracer_class_init (DroppedErrorTracerClass *
    klass)
{
}

static void
sharpness_tool_dropped_error_tracer_init (DroppedErrorTracer * self)
{
}

/* Whether @element was plugged in by a watched decodebin (in a watched
 * uridecodebin, decodebin is a child of the watched element): the
 * elements whose errors it may drop.  Other bins that handle their
 * children's errors, such as adaptive demuxers retrying a download, are
 * left alone. */
static gboolean
in_watched_decodebin (GstElement * element)
{
  GstObject *parent = gst_object_get_parent (GST_OBJECT (element));
  gboolean watched = FALSE;

  if (!parent || !g_str_equal (G_OBJECT_TYPE_NAME (parent), "GstDecodeBin")) {
    g_clear_object (&parent);
    return FALSE;
  }
  while (parent && !watched) {
    GstObject *up = gst_object_get_parent (parent);

    watched = g_object_get_qdata (G_OBJECT (parent), watched_quark ()) !=
        NULL;
    gst_object_unref (parent);
    parent = up;
  }
  g_clear_object (&parent);
  return watched;
}

/* The top-level bin @object is in (a reference). */
static GstObject *
top_of (GstObject * object)
{
  GstObject *top = gst_object_ref (object), *parent;

  while ((parent = gst_object_get_parent (top))) {
    gst_object_unref (top);
    top = parent;
  }
  return top;
}

typedef struct
{
  GstMessage *error;
  guint checks;
} Check;

static void
check_free (gpointer data)
{
  Check *check = data;

  gst_message_unref (check->error);
  g_free (check);
}

/* Main loop: whether the element that posted the error is still in and
 * started; if so, nobody will report its error but us. */
static gboolean
check_error (gpointer data)
{
  Check *check = data;
  GstObject *src = GST_MESSAGE_SRC (check->error);
  GstObject *parent = gst_object_get_parent (src), *top;
  GstBus *bus;
  GstState state;

  /* Taken out: decodebin was trying it, and the error was part of that
   * (or the pipeline is gone). */
  if (!parent)
    return G_SOURCE_REMOVE;
  gst_object_unref (parent);
  GST_OBJECT_LOCK (src);
  state = GST_STATE (src);
  GST_OBJECT_UNLOCK (src);
  if (state < GST_STATE_PAUSED)
    return ++check->checks < MAX_CHECKS ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
  top = top_of (src);
  if (GST_IS_ELEMENT (top) && (bus = gst_element_get_bus (GST_ELEMENT (top)))) {
    gst_bus_post (bus, gst_message_copy (check->error));
    gst_object_unref (bus);
  }
  gst_object_unref (top);
  return G_SOURCE_REMOVE;
}

/* Any thread: every error a watched decodebin's element posts is
 * checked, before decodebin can drop it. */
static void
on_post_message (GObject * tracer, GstClockTime ts, GstElement * element,
    GstMessage * msg)
{
  Check *check;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR ||
      !in_watched_decodebin (element))
    return;
  check = g_new0 (Check, 1);
  check->error = gst_message_ref (msg);
  g_timeout_add_full (G_PRIORITY_DEFAULT, CHECK_MS, check_error, check,
      check_free);
}

static gpointer
register_tracer (gpointer data)
{
  GstTracer *tracer;

  /* Kept for the process' life: hooks have no unregistering. */
  tracer = g_object_new (sharpness_tool_dropped_error_tracer_get_type (),
      NULL);
  gst_tracing_register_hook (tracer, "element-post-message-pre",
      G_CALLBACK (on_post_message));
  return NULL;
}

void
sharpness_tool_dropped_errors_watch (GstElement * decodebin)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, register_tracer, NULL);
  g_object_set_qdata (G_OBJECT (decodebin), watched_quark (),
      GINT_TO_POINTER (TRUE));
}
