/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-event-thumbnails.h"
#include "sharpness-fields.h"


GST_DEBUG_CATEGORY_STATIC (thumbnails_debug);
#define GST_CAT_DEFAULT thumbnails_debug

/* Encoding a thumbnail is quick; a worker stuck past this gives up and
 * posts the event without one. */
#define ENCODE_TIMEOUT (2 * GST_SECOND)

typedef struct
{
  GstMessage *message;
  GstSample *picture;           /* raw, or NULL */
} Job;

struct _SharpnessEventThumbnails
{
  GstElement *element;
  /* Streaming thread. */
  GstVideoInfo in_info, out_info;
  guint width;
  GstVideoConverter *convert;
  GstCaps *out_caps;
  GstBuffer *picture[SHARPNESS_EVENT_N_KINDS];  /* NULL: none kept */
  /* The worker, and the jobs not yet posted (lock). */
  GThreadPool *pool;
  GMutex lock;
  GCond idle;
  guint pending;
};

static void
encode_and_post (gpointer data, gpointer user_data)
{
  Job *job = data;
  SharpnessEventThumbnails *t = user_data;

  if (job->picture) {
    GError *err = NULL;
    GstCaps *jpeg = gst_caps_new_empty_simple ("image/jpeg");
    GstSample *thumb = gst_video_convert_sample (job->picture, jpeg,
        ENCODE_TIMEOUT, &err);

    gst_caps_unref (jpeg);
    if (thumb) {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, GST_TYPE_SAMPLE);
      g_value_take_boxed (&v, thumb);
      sharpness_structure_take (gst_message_writable_structure
          (job->message), SHARPNESS_FIELD_THUMBNAIL, &v);
    } else {
      GST_WARNING_OBJECT (t->element, "no event thumbnail: %s",
          err ? err->message : "encoding failed");
      g_clear_error (&err);
    }
    gst_sample_unref (job->picture);
  }
  gst_element_post_message (t->element, job->message);
  g_free (job);

  g_mutex_lock (&t->lock);
  if (--t->pending == 0)
    g_cond_broadcast (&t->idle);
  g_mutex_unlock (&t->lock);
}

SharpnessEventThumbnails *
sharpness_event_thumbnails_new (GstElement * element)
{
  SharpnessEventThumbnails *t = g_new0 (SharpnessEventThumbnails, 1);

  GST_DEBUG_CATEGORY_INIT (thumbnails_debug, "sharpnessthumbnails", 0,
      "event thumbnails of cudasharpness");
  t->element = element;
  gst_video_info_init (&t->in_info);
  g_mutex_init (&t->lock);
  g_cond_init (&t->idle);
  /* One thread: the messages are posted in the order they came. */
  t->pool = g_thread_pool_new (encode_and_post, t, 1, FALSE, NULL);
  return t;
}

static void
forget_pictures (SharpnessEventThumbnails * t)
{
  for (gint k = 0; k < SHARPNESS_EVENT_N_KINDS; k++)
    gst_clear_buffer (&t->picture[k]);
}

void
sharpness_event_thumbnails_free (SharpnessEventThumbnails * t)
{
  if (!t)
    return;
  /* Waits for the queued jobs. */
  g_thread_pool_free (t->pool, FALSE, TRUE);
  forget_pictures (t);
  g_clear_pointer (&t->convert, gst_video_converter_free);
  gst_clear_caps (&t->out_caps);
  g_mutex_clear (&t->lock);
  g_cond_clear (&t->idle);
  g_free (t);
}

gboolean
sharpness_event_thumbnails_enabled (SharpnessEventThumbnails * t)
{
  return t->convert != NULL;
}

void
sharpness_event_thumbnails_configure (SharpnessEventThumbnails * t,
    const GstVideoInfo * info, guint width)
{
  gint height;

  if (width == t->width && gst_video_info_is_equal (info, &t->in_info))
    return;
  forget_pictures (t);
  g_clear_pointer (&t->convert, gst_video_converter_free);
  gst_clear_caps (&t->out_caps);
  t->width = width;
  t->in_info = *info;
  if (width == 0 || GST_VIDEO_INFO_WIDTH (info) <= 0)
    return;

  width = MIN (width, (guint) GST_VIDEO_INFO_WIDTH (info));
  height = MAX (1, (gint) gst_util_uint64_scale_int_round (width,
          GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_WIDTH (info)));
  gst_video_info_set_format (&t->out_info, GST_VIDEO_FORMAT_RGBx, width,
      height);
  GST_VIDEO_INFO_FPS_N (&t->out_info) = GST_VIDEO_INFO_FPS_N (info);
  GST_VIDEO_INFO_FPS_D (&t->out_info) = GST_VIDEO_INFO_FPS_D (info);
  /* Nearest sampling: a copy costs a few thousand reads, not a frame. */
  t->convert = gst_video_converter_new ((GstVideoInfo *) info, &t->out_info,
      gst_structure_new ("options",
          GST_VIDEO_CONVERTER_OPT_RESAMPLER_METHOD,
          GST_TYPE_VIDEO_RESAMPLER_METHOD, GST_VIDEO_RESAMPLER_METHOD_NEAREST,
          GST_VIDEO_CONVERTER_OPT_CHROMA_RESAMPLER_METHOD,
          GST_TYPE_VIDEO_RESAMPLER_METHOD, GST_VIDEO_RESAMPLER_METHOD_NEAREST,
          GST_VIDEO_CONVERTER_OPT_DITHER_METHOD, GST_TYPE_VIDEO_DITHER_METHOD,
          GST_VIDEO_DITHER_NONE, GST_VIDEO_CONVERTER_OPT_THREADS, G_TYPE_UINT,
          1, NULL));
  if (!t->convert) {
    GST_WARNING_OBJECT (t->element, "cannot convert %s frames for event "
        "thumbnails", GST_VIDEO_INFO_NAME (info));
    return;
  }
  t->out_caps = gst_video_info_to_caps (&t->out_info);
}

void
sharpness_event_thumbnails_keep (SharpnessEventThumbnails * t,
    SharpnessEventKind kind, GstBuffer * buffer)
{
  GstVideoFrame in, out;
  GstBuffer *pic;

  if (!t->convert)
    return;
  /* A picture kept for an event not yet posted is still shared with its
   * job: copy into a buffer of our own, made when none is free. */
  pic = t->picture[kind];
  if (!pic || !gst_buffer_is_writable (pic)) {
    gst_clear_buffer (&t->picture[kind]);
    pic = t->picture[kind] = gst_buffer_new_allocate (NULL,
        GST_VIDEO_INFO_SIZE (&t->out_info), NULL);
  }
  /* CUDA memory maps for the host by a download: rare (see above). */
  if (!gst_video_frame_map (&in, &t->in_info, buffer, GST_MAP_READ))
    return;
  if (gst_video_frame_map (&out, &t->out_info, pic, GST_MAP_WRITE)) {
    gst_video_converter_frame (t->convert, &in, &out);
    gst_video_frame_unmap (&out);
  }
  gst_video_frame_unmap (&in);
}

void
sharpness_event_thumbnails_post (SharpnessEventThumbnails * t,
    SharpnessEventKind kind, GstMessage * message)
{
  Job *job = g_new0 (Job, 1);

  job->message = message;
  if (t->convert && t->picture[kind])
    job->picture = gst_sample_new (t->picture[kind], t->out_caps, NULL, NULL);
  g_mutex_lock (&t->lock);
  t->pending++;
  g_mutex_unlock (&t->lock);
  g_thread_pool_push (t->pool, job, NULL);
}

void
sharpness_event_thumbnails_drain (SharpnessEventThumbnails * t,
    GstClockTime timeout)
{
  gint64 end = g_get_monotonic_time () + timeout / GST_USECOND;

  g_mutex_lock (&t->lock);
  while (t->pending > 0 && g_cond_wait_until (&t->idle, &t->lock, end));
  g_mutex_unlock (&t->lock);
}
