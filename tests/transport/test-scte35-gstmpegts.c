/* The analyser's SCTE 35 against GStreamer's own parser: the SCTE 35 test
 * stream (scte35-stream.h) written to a file, read by tsparse (whose
 * sections, libgstmpegts's, come on the bus) and by the analyser; every
 * section libgstmpegts reads (gst_mpegts_section_get_scte_sit) read equal
 * by the analyser, field by field, and both equal to what was written;
 * the section whose CRC_32 does not hold read by neither (tsdemux, not
 * tsparse, reads private sections: they are its bus messages).  tsdemux's
 * send-scte35-events hands downstream as many SCTE 35 sections as the
 * analyser read, on the stream without the bad section: with it, tsdemux
 * dereferences the NULL that gst_mpegts_section_get_scte_sit() returns
 * for it (handle_psi(), 1.22 to 1.26 alike) and crashes.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* libgstmpegts says its API may change (the build defines
 * GST_USE_UNSTABLE_API); what is used here is in 1.22 and 1.26 alike
 * (gst-scte-section.h is the same in both). */
#include <gst/gst.h>
#include <gst/mpegts/mpegts.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sharpness-tr101290.h"
#include "scte35-stream.h"

#define S G_GINT64_CONSTANT (1000000000)
#define NONE SHARPNESS_SCTE35_TIME_NONE
#define SECONDS 10

static gint failures, checks;

static void
check (gboolean ok, const gchar * fmt, ...)
{
  va_list ap;

  checks++;
  if (ok)
    return;
  failures++;
  va_start (ap, fmt);
  printf ("FAIL ");
  vprintf (fmt, ap);
  printf ("\n");
  va_end (ap);
}

#define EQ(what, ours, theirs) check ((guint64) (ours) == (guint64) (theirs), \
    "section %u: %s: analyser %" G_GUINT64_FORMAT ", libgstmpegts %" \
    G_GUINT64_FORMAT, i, what, (guint64) (ours), (guint64) (theirs))

typedef struct
{
  SharpnessScte35 cues[SCTE35_STREAM_CUES];
  guint n, errors;
} Ours;

static void
on_cue (const SharpnessTr101290Scte35 * e, gpointer user_data)
{
  Ours *o = user_data;

  if (e->cue && o->n < SCTE35_STREAM_CUES)
    o->cues[o->n++] = *e->cue;
  else if (!e->cue)
    o->errors++;
}

/* A splice time of libgstmpegts (as written: it leaves pts_adjustment to
 * its user) against ours. */
static void
same_time (guint i, const gchar * what, const SharpnessScte35Time * t,
    gboolean specified, guint64 pts_time)
{
  gchar *w = g_strdup_printf ("%s specified", what);

  EQ (w, t->pts_time != NONE, specified);
  g_free (w);
  if (specified && t->pts_time != NONE)
    EQ (what, t->pts_time, pts_time);
}

static void
compare (guint i, const SharpnessScte35 * o, const GstMpegtsSCTESIT * sit)
{
  EQ ("encrypted_packet", o->encrypted, sit->encrypted_packet);
  EQ ("encryption_algorithm", o->encryption_algorithm,
      sit->encryption_algorithm);
  EQ ("pts_adjustment", o->pts_adjustment, sit->pts_adjustment);
  EQ ("cw_index", o->cw_index, sit->cw_index);
  EQ ("tier", o->tier, sit->tier);
  EQ ("splice_command_length", o->splice_command_length,
      sit->splice_command_length);
  EQ ("splice_command_type", o->command_type, sit->splice_command_type);
  if (o->command_type == SHARPNESS_SCTE35_TIME_SIGNAL)
    same_time (i, "time_signal pts_time", &o->time,
        sit->splice_time_specified, sit->splice_time);
  EQ ("splice count", o->splice_count, sit->splices ? sit->splices->len : 0);
  for (guint k = 0; sit->splices && k < MIN (sit->splices->len,
          SHARPNESS_SCTE35_MAX_SPLICES); k++) {
    const GstMpegtsSCTESpliceEvent *e = g_ptr_array_index (sit->splices, k);
    const SharpnessScte35Splice *s = &o->splices[k];

    EQ ("insert_event", o->command_type == SHARPNESS_SCTE35_SPLICE_INSERT,
        e->insert_event);
    EQ ("splice_event_id", s->splice_event_id, e->splice_event_id);
    EQ ("splice_event_cancel_indicator", s->cancel,
        e->splice_event_cancel_indicator);
    if (s->cancel)
      continue;
    EQ ("out_of_network_indicator", s->out_of_network,
        e->out_of_network_indicator);
    EQ ("program_splice_flag", s->program_splice, e->program_splice_flag);
    EQ ("duration_flag", s->duration_flag, e->duration_flag);
    if (e->insert_event) {
      EQ ("splice_immediate_flag", s->splice_immediate,
          e->splice_immediate_flag);
      if (s->program_splice && !s->splice_immediate)
        same_time (i, "splice_insert pts_time", &s->time,
            e->program_splice_time_specified, e->program_splice_time);
    } else if (s->program_splice) {
      EQ ("utc_splice_time", s->utc_splice_time, e->utc_splice_time);
    }
    if (!s->program_splice) {
      EQ ("component_count", s->component_count,
          e->components ? e->components->len : 0);
      for (guint c = 0; e->components && c < MIN (e->components->len,
              SHARPNESS_SCTE35_MAX_COMPONENTS); c++) {
        const GstMpegtsSCTESpliceComponent *gc =
            g_ptr_array_index (e->components, c);

        EQ ("component_tag", s->components[c].tag, gc->tag);
        if (e->insert_event && !s->splice_immediate)
          same_time (i, "component pts_time", &s->components[c].time,
              gc->splice_time_specified, gc->splice_time);
        else if (!e->insert_event)
          EQ ("component utc_splice_time", s->components[c].utc_splice_time,
              gc->utc_splice_time);
      }
    }
    if (s->duration_flag) {
      EQ ("auto_return", s->auto_return, e->break_duration_auto_return);
      EQ ("break duration", s->duration, e->break_duration);
    }
    EQ ("unique_program_id", s->unique_program_id, e->unique_program_id);
    EQ ("avail_num", s->avail_num, e->avail_num);
    EQ ("avails_expected", s->avails_expected, e->avails_expected);
  }
  /* libgstmpegts keeps the splice descriptors whole: their count, and the
   * segmentation descriptors' event ids from their bytes. */
  EQ ("descriptors", o->n_descriptors, sit->descriptors ?
      sit->descriptors->len : 0);
  for (guint k = 0, g = 0; sit->descriptors && k < sit->descriptors->len;
      k++) {
    const GstMpegtsDescriptor *d = g_ptr_array_index (sit->descriptors, k);

    if (d->tag != 0x02 || d->length < 8 || g >= o->segmentation_count)
      continue;
    EQ ("segmentation_event_id", o->segmentations[g].event_id,
        GST_READ_UINT32_BE (d->data + 6));
    g++;
  }
}

/* Sections libgstmpegts read, in order; sections it refused. */
typedef struct
{
  GPtrArray *sits;              /* GstMpegtsSection */
  guint refused;
  guint demux_events;
} Theirs;

static GstPadProbeReturn
demux_event (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Theirs *t = user_data;
  GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
  GstMpegtsSection *s = gst_event_parse_mpegts_section (ev);

  if (s) {
    if (s->section_type == GST_MPEGTS_SECTION_SCTE_SIT)
      g_atomic_int_inc (&t->demux_events);
    gst_mpegts_section_unref (s);
  }
  return GST_PAD_PROBE_OK;
}

static void
demux_pad (GstElement * demux, GstPad * pad, gpointer user_data)
{
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);
  GstElement *bin = GST_ELEMENT (gst_element_get_parent (demux));
  GstPad *sinkpad;

  g_object_set (sink, "async", FALSE, NULL);
  gst_bin_add (GST_BIN (bin), sink);
  gst_element_sync_state_with_parent (sink);
  sinkpad = gst_element_get_static_pad (sink, "sink");
  gst_pad_link (pad, sinkpad);
  gst_object_unref (sinkpad);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, demux_event,
      user_data, NULL);
  gst_object_unref (bin);
}

/* @description to EOS, at most 60 s; tsparse's sections kept. */
static void
run (const gchar * description, Theirs * t)
{
  GError *error = NULL;
  GstElement *p = gst_parse_launch (description, &error);
  GstElement *demux;
  GstBus *bus;
  gboolean done = FALSE;
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  g_assert_no_error (error);
  if ((demux = gst_bin_get_by_name (GST_BIN (p), "d"))) {
    g_signal_connect (demux, "pad-added", G_CALLBACK (demux_pad), t);
    gst_object_unref (demux);
  }
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  while (!done && g_get_monotonic_time () < end) {
    GstMessage *m = gst_bus_timed_pop (bus, 100 * GST_MSECOND);
    GstMpegtsSection *s;

    if (!m)
      continue;
    switch (GST_MESSAGE_TYPE (m)) {
      case GST_MESSAGE_EOS:
        done = TRUE;
        break;
      case GST_MESSAGE_ERROR:{
        gchar *dbg = NULL;

        gst_message_parse_error (m, &error, &dbg);
        check (FALSE, "%s: %s (%s)", description, error->message, dbg);
        g_clear_error (&error);
        g_free (dbg);
        done = TRUE;
        break;
      }
      default:
        if (t->sits && (s = gst_message_parse_mpegts_section (m))) {
          if (s->section_type == GST_MPEGTS_SECTION_SCTE_SIT) {
            if (gst_mpegts_section_get_scte_sit (s))
              g_ptr_array_add (t->sits, gst_mpegts_section_ref (s));
            else
              t->refused++;
          }
          gst_mpegts_section_unref (s);
        }
        break;
    }
    gst_message_unref (m);
  }
  check (done, "%s ended within 60 s", description);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
}

/* The stream (@break_crc: with the bad section) of SECONDS s into a
 * temporary file, and read by the analyser into @ours. */
static gchar *
write_stream (gboolean break_crc, Scte35Sent * sent, guint * n, Ours * ours)
{
  static TsWriter w;
  GString *ts = g_string_new (NULL);
  SharpnessTr101290 *a;
  gchar *path = NULL;
  gint64 t = 0;
  gint fd;

  *n = scte35_stream_init (&w, sent, break_crc);
  while (t < SECONDS * S) {
    guint8 pkt[188];

    ts_writer_next (&w, pkt, &t);
    g_string_append_len (ts, (const gchar *) pkt, sizeof (pkt));
  }
  fd = g_file_open_tmp ("scte35-XXXXXX.ts", &path, NULL);
  g_assert (fd >= 0);
  g_assert (write (fd, ts->str, ts->len) == (gssize) ts->len);
  close (fd);
  a = sharpness_tr101290_new (NULL, NULL, NULL);
  sharpness_tr101290_set_scte35_func (a, on_cue, ours);
  sharpness_tr101290_push (a, (const guint8 *) ts->str, ts->len,
      SHARPNESS_TR101290_TIME_NONE);
  sharpness_tr101290_free (a);
  g_string_free (ts, TRUE);
  return path;
}

int
main (int argc, char **argv)
{
  Scte35Sent sent[SCTE35_STREAM_CUES], clean_sent[SCTE35_STREAM_CUES];
  guint n, n_clean, valid = 0;
  Ours ours = { 0 }, clean = { 0 };
  Theirs theirs = { g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_mini_object_unref), 0, 0 };
  Theirs demuxed = { NULL, 0, 0 };
  gchar *path, *description;

  gst_init (&argc, &argv);
  gst_mpegts_initialize ();
  path = write_stream (TRUE, sent, &n, &ours);
  description = g_strdup_printf ("filesrc location=%s ! tsdemux name=d",
      path);
  run (description, &theirs);
  g_free (description);
  g_unlink (path);
  g_free (path);
  path = write_stream (FALSE, clean_sent, &n_clean, &clean);
  description = g_strdup_printf ("filesrc location=%s ! tsdemux name=d "
      "send-scte35-events=true", path);
  run (description, &demuxed);
  g_free (description);
  g_unlink (path);
  g_free (path);
  check (clean.n == n_clean && demuxed.demux_events == clean.n, "tsdemux send-scte35-events: %u "
      "SCTE 35 sections sent downstream, analyser %u", demuxed.demux_events,
      clean.n);
  for (guint i = 0; i < n; i++)
    valid += !sent[i].bad_crc;
  check (ours.n == valid && ours.errors == n - valid,
      "analyser: %u sections, %u refused (written %u, %u bad)", ours.n,
      ours.errors, valid, n - valid);
  check (theirs.sits->len == valid, "libgstmpegts: %u sections read "
      "(written %u with a good CRC_32; %u refused)", theirs.sits->len, valid,
      theirs.refused);
  for (guint i = 0; i < MIN (ours.n, theirs.sits->len); i++)
    compare (i, &ours.cues[i], gst_mpegts_section_get_scte_sit
        (g_ptr_array_index (theirs.sits, i)));
  printf ("%u sections compared, %d checks, %d failed\n",
      MIN (ours.n, theirs.sits->len), checks, failures);
  g_ptr_array_unref (theirs.sits);
  return failures ? 1 : 0;
}
