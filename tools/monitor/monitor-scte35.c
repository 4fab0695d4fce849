/* sharpness-monitor: SCTE 35 cues as events (monitor-scte35.h).  The
 * event's JSON is made here, whole ("kind": "scte35", "event":
 * "splice_insert" or "time_signal"), and written by the event store as it
 * is, with its id: a cue is a fact of the stream, not an alarm's start
 * or end, and goes to the store and the log, not to the webhooks.
 * Times are in 90 kHz ticks as the standard writes them (the splice time
 * with pts_adjustment added, modulo 2^33) and in seconds.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "monitor-scte35.h"

#define NONE SHARPNESS_SCTE35_TIME_NONE

static void
add_int (JsonBuilder * b, const gchar * key, gint64 v)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, v);
}

static void
add_bool (JsonBuilder * b, const gchar * key, gboolean v)
{
  json_builder_set_member_name (b, key);
  json_builder_add_boolean_value (b, v);
}

/* A 90 kHz time: "KEY" in ticks and "KEY_seconds", null when none. */
static void
add_ticks (JsonBuilder * b, const gchar * key, guint64 t)
{
  gchar *seconds = g_strconcat (key, "_seconds", NULL);

  json_builder_set_member_name (b, key);
  if (t == NONE)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, (gint64) t);
  json_builder_set_member_name (b, seconds);
  if (t == NONE)
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, t / 90000.0);
  g_free (seconds);
}

static void
splice_insert (JsonBuilder * b, const SharpnessScte35Splice * s)
{
  add_int (b, "splice_event_id", s->splice_event_id);
  add_bool (b, "splice_event_cancel", s->cancel);
  if (s->cancel)
    return;
  add_bool (b, "out_of_network", s->out_of_network);
  add_bool (b, "program_splice", s->program_splice);
  add_bool (b, "splice_immediate", s->splice_immediate);
  add_ticks (b, "pts", s->time.pts);
  if (!s->program_splice)
    add_int (b, "component_count", s->component_count);
  add_ticks (b, "duration", s->duration_flag ? s->duration : NONE);
  if (s->duration_flag)
    add_bool (b, "auto_return", s->auto_return);
  add_int (b, "unique_program_id", s->unique_program_id);
  add_int (b, "avail_num", s->avail_num);
  add_int (b, "avails_expected", s->avails_expected);
}

static void
segmentations (JsonBuilder * b, const SharpnessScte35 * c)
{
  guint n = MIN (c->segmentation_count, SHARPNESS_SCTE35_MAX_SEGMENTATIONS);

  json_builder_set_member_name (b, "segmentation");
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++) {
    const SharpnessScte35Segmentation *g = &c->segmentations[i];

    json_builder_begin_object (b);
    add_int (b, "segmentation_event_id", g->event_id);
    add_bool (b, "cancel", g->cancel);
    if (!g->cancel) {
      add_int (b, "segmentation_type_id", g->type_id);
      add_int (b, "segment_num", g->segment_num);
      add_int (b, "segments_expected", g->segments_expected);
      add_ticks (b, "duration", g->duration);
      add_int (b, "upid_type", g->upid_type);
    }
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
}

MonitorEvent *
monitor_scte35_event (const gchar * channel, const MonitorTransportCue * cue)
{
  const SharpnessScte35 *c = &cue->cue;
  MonitorEvent *e = monitor_event_new (channel, MONITOR_KIND_NO_SCTE35,
      FALSE);
  JsonBuilder *b = json_builder_new ();
  gchar *time = monitor_rfc3339 (cue->wall_us, 6);

  json_builder_begin_object (b);
  add_int (b, "id", 0);
  json_builder_set_member_name (b, "channel");
  json_builder_add_string_value (b, channel);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, "scte35");
  json_builder_set_member_name (b, "event");
  json_builder_add_string_value (b, sharpness_scte35_count_name
      (sharpness_scte35_count_of (c)));
  json_builder_set_member_name (b, "time");
  json_builder_add_string_value (b, time);
  add_int (b, "pid", cue->pid);
  add_int (b, "packet", (gint64) cue->packet);
  add_ticks (b, "pts_adjustment", c->pts_adjustment);
  add_int (b, "tier", c->tier);
  if (c->command_type == SHARPNESS_SCTE35_SPLICE_INSERT)
    splice_insert (b, &c->splices[0]);
  else
    add_ticks (b, "pts", c->time.pts);
  segmentations (b, c);
  json_builder_end_object (b);
  e->body = json_builder_get_root (b);
  e->start_wall_us = cue->wall_us;
  g_object_unref (b);
  g_free (time);
  return e;
}

JsonNode *
monitor_scte35_api_node (const MonitorTransportStats * ts)
{
  JsonBuilder *b;
  JsonNode *root;
  const MonitorTransportCue *last = &ts->last_cue;

  if (!monitor_transport_has_scte35 (ts))
    return NULL;
  b = json_builder_new ();
  json_builder_begin_object (b);
  add_int (b, "pids", ts->scte35_pids);
  json_builder_set_member_name (b, "commands");
  json_builder_begin_object (b);
  for (gint k = 0; k < SHARPNESS_SCTE35_N_COUNTS; k++)
    add_int (b, sharpness_scte35_count_name (k), (gint64) ts->scte35[k]);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "errors");
  json_builder_begin_object (b);
  for (gint k = SHARPNESS_SCTE35_CRC_ERROR; k < SHARPNESS_SCTE35_N_RESULTS;
      k++)
    add_int (b, sharpness_scte35_result_name (k),
        (gint64) ts->scte35_errors[k]);
  json_builder_end_object (b);
  add_int (b, "events_dropped", (gint64) ts->cues_dropped);
  json_builder_set_member_name (b, "last");
  if (!ts->last_cue_mono_us) {
    json_builder_add_null_value (b);
  } else {
    gchar *time = monitor_rfc3339 (last->wall_us, 3);

    json_builder_begin_object (b);
    json_builder_set_member_name (b, "event");
    json_builder_add_string_value (b, sharpness_scte35_count_name
        (sharpness_scte35_count_of (&last->cue)));
    json_builder_set_member_name (b, "time");
    json_builder_add_string_value (b, time);
    if (last->cue.command_type == SHARPNESS_SCTE35_SPLICE_INSERT) {
      add_int (b, "splice_event_id", last->cue.splices[0].splice_event_id);
      add_ticks (b, "pts", last->cue.splices[0].time.pts);
    } else {
      add_ticks (b, "pts", last->cue.time.pts);
    }
    json_builder_end_object (b);
    g_free (time);
  }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  g_object_unref (b);
  return root;
}
