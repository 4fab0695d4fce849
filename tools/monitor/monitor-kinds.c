/* sharpness-monitor's alarm kinds: the one table of them.  Blur, black and
 * freeze are the element's stretches (analysis/sharpness-content.c decides
 * them: a black or frozen stretch is never a blurry one); the monitor
 * decides silence (the level element on the first audio stream), no
 * signal (no frame for the onset), the compared pairs' PSNR, SSIM and
 * VMAF drops, the transport's ETSI TR 101 290 errors of priority 1 and 2 and
 * its SCTE 35 cues' absence (monitor-transport.c), the programme loudness
 * and true peak
 * (monitor-loudness.c), and the captions' absence (monitor-captions.c).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "monitor.h"
#include "sharpness-content.h"
#include "sharpness-tool-rule.h"

/* Onsets: the scan tool's minimum blurry duration; FFmpeg's d for black
 * and freeze (what blackdetect and freezedetect report by default).  The
 * element's own stretches end exactly (its max-blurry-gap is blur's
 * hysteresis), so their clear hold-off is 0; the measured levels get one
 * second so that a level hovering at its limit makes one alarm, not
 * many. */
const MonitorKindInfo monitor_kinds[MONITOR_N_KINDS] = {
  [MONITOR_KIND_BLUR] = {"blur", SHARPNESS_EVENT_BLUR,
      "min-blurry-duration", NULL,
      {TRUE, SHARPNESS_TOOL_DEFAULT_MIN_DURATION, 0, 0}},
  [MONITOR_KIND_BLACK] = {"black", SHARPNESS_EVENT_BLACK,
      "black-min-duration", "black", {TRUE, 2.0, 0, 0}},
  [MONITOR_KIND_FREEZE] = {"freeze", SHARPNESS_EVENT_FREEZE,
      "freeze-min-duration", "freeze", {TRUE, 2.0, 0, 0}},
  [MONITOR_KIND_SILENCE] = {"silence", -1, NULL, NULL,
      {TRUE, 2.0, 1.0, -60.0}},
  [MONITOR_KIND_NO_SIGNAL] = {"no-signal", -1, NULL, NULL,
      {TRUE, 2.0, 0, 0}},
  [MONITOR_KIND_PSNR_DROP] = {"psnr-drop", -1, NULL, NULL,
      {TRUE, 1.0, 1.0, 30.0}},
  [MONITOR_KIND_SSIM_DROP] = {"ssim-drop", -1, NULL, NULL,
      {TRUE, 1.0, 1.0, 0.9}},
  /* VMAF (only where the channel scores it, compare-vmaf) under 70.
   * Encodes for broadcast and a streaming ladder's top rungs are made
   * for 93 or more (indistinguishable from the source, or a distortion
   * noticed but not annoying), and a difference of about 6 points is
   * commonly taken as one just-noticeable one: 70 is some four of them
   * under that, a picture viewers see as impaired, where a rung that is
   * merely a little soft (80-90) raises nothing.  Onset and clear as the
   * other drops (docs/reference/sharpness-monitor.md has the sources). */
  [MONITOR_KIND_VMAF_DROP] = {"vmaf-drop", -1, NULL, NULL,
      {TRUE, 1.0, 1.0, 70.0}},
  /* An error of the priority is an alarm at once (onset 0: a probe's
   * first duty is to say the transport broke); it ends once none has
   * come for the clear hold-off, 10 s, so that a stream with an error
   * every few seconds makes one alarm, not one a second.  Off unless the
   * channel enables them (the counters are always kept): files and
   * contribution feeds often break TR 101 290's limits by design (FFmpeg's
   * variable-rate TS carries a PCR per frame: PCR_repetition_error at
   * any frame rate below 25; a small stream's PAT comes every ~40
   * packets, seconds apart), and an alarm on every such channel would
   * hide the picture's. */
  [MONITOR_KIND_TR101290_P1] = {"tr101290-p1", -1, NULL, NULL,
      {FALSE, 0, 10.0, 0}},
  [MONITOR_KIND_TR101290_P2] = {"tr101290-p2", -1, NULL, NULL,
      {FALSE, 0, 10.0, 0}},
  /* No SCTE 35 splice_insert or time_signal for 30 minutes, on a channel
   * that should carry cues (off unless enabled: most feeds carry none; a
   * channel with breaks every quarter hour sets its own onset).  A cue
   * ends it at once.  splice_null heartbeats do not count: they say the
   * inserter is up, not that breaks are signalled. */
  [MONITOR_KIND_NO_SCTE35] = {"no-scte35", -1, NULL, NULL,
      {FALSE, 1800.0, 0, 0}},
  /* EBU R 128's target, -23 LUFS, +-1 LU (its tolerance for live
   * programmes), on the short-term loudness (3 s) for 10 s: a loud or
   * quiet passage of a few seconds is programme, ten seconds of it a
   * level fault (ATSC A/85: levels -23 and -25 around -24 LKFS).  Below
   * the absolute gate (-70 LUFS) is silence's, not loudness-low's.  True
   * peak over R 128's -1 dBTP maximum: at once.  Off unless the channel
   * enables them: only a channel whose programme is normalised to a
   * target has a loudness fault (a contribution feed, a test channel's
   * tone are not); the loudness is measured on every channel. */
  [MONITOR_KIND_LOUDNESS_HIGH] = {"loudness-high", -1, NULL, NULL,
      {FALSE, 10.0, 2.0, -22.0}},
  [MONITOR_KIND_LOUDNESS_LOW] = {"loudness-low", -1, NULL, NULL,
      {FALSE, 10.0, 2.0, -24.0}},
  [MONITOR_KIND_TRUE_PEAK] = {"true-peak", -1, NULL, NULL,
      {FALSE, 0, 2.0, -1.0}},
  /* Pictures but no audio (a stream without it, or audio that stopped)
   * for 2 s, on a channel that should carry it (off unless enabled). */
  [MONITOR_KIND_NO_AUDIO] = {"no-audio", -1, NULL, NULL,
      {FALSE, 2.0, 0, 0}},
  /* Pictures but no valid CEA-608/708 caption packet for 10 s, on a
   * channel that should carry captions (off unless enabled: most feeds
   * have none).  A/53 Part 4 sends cc_data with every picture while a
   * service is on, but a pause in speech is padding that some caption
   * encoders mark not valid, and an encoder that restarts leaves a few
   * seconds without any: ten seconds is a lost service.  One second of
   * captions back ends it. */
  [MONITOR_KIND_NO_CAPTIONS] = {"no-captions", -1, NULL, NULL,
      {FALSE, 10.0, 1.0, 0}},
};

const gchar *
monitor_kind_name (MonitorKind kind)
{
  return kind < MONITOR_N_KINDS ? monitor_kinds[kind].name : "unknown";
}

gint
monitor_kind_from_name (const gchar * name)
{
  for (gint k = 0; k < MONITOR_N_KINDS; k++)
    if (g_strcmp0 (name, monitor_kinds[k].name) == 0)
      return k;
  return -1;
}

MonitorKind
monitor_kind_of_element (gint element_kind)
{
  for (gint k = 0; k < MONITOR_N_KINDS; k++)
    if (monitor_kinds[k].element_kind >= 0 &&
        monitor_kinds[k].element_kind == element_kind)
      return (MonitorKind) k;
  g_return_val_if_reached (MONITOR_KIND_BLUR);
}
