/* sharpness-scan: what main sets up before the scan: the inputs
 * (scan-inputs.c) and the output files (scan-outfile.c); GPU decoding is
 * tools/common/sharpness-tool-gpu.h.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SCAN_SETUP_H
#define SCAN_SETUP_H

#include <stdio.h>

#include "scan.h"

G_BEGIN_DECLS

/* The options of the content states, in scan-content.c's order. */
enum
{
  SCAN_CONTENT_BLACK_PIXEL_THRESHOLD,
  SCAN_CONTENT_BLACK_RATIO,
  SCAN_CONTENT_BLACK_MIN_DURATION,
  SCAN_CONTENT_FREEZE_NOISE,
  SCAN_CONTENT_FREEZE_MIN_DURATION,
  SCAN_CONTENT_FLAT_THRESHOLD,
  SCAN_CONTENT_N_OPTIONS
};

/* The command line (scan-options.c). */
typedef struct
{
  ScanSettings settings;        /* jobs, gpu_decode and the content
                                 * parameters not set yet */
  guint jobs;                   /* --jobs, 0: not given */
  const gchar *csv, *json, *report, *list;
  guint shard_i, shard_n;
  gboolean fail_on_blurry, fail_on_damaged;
  /* The content options as given, NaN when not. */
  gdouble content[SCAN_CONTENT_N_OPTIONS];
  /* --merge: the inputs are the JSON parts of a sharded scan. */
  gboolean merge;
  /* --reference: the inputs are encodes of this file, compared with it
   * (scan-reference.h); the comparison's options. */
  const gchar *reference, *vmaf_model, *compare_metrics, *output_dir;
  guint worst;
  gchar **inputs;
} ScanCommandLine;

/* Parses and checks the command line; returns -1 to go on, else the exit
 * status (a message was printed). */
gint scan_options_parse (int *argc, char ***argv, ScanCommandLine * cl);

/* Content states (scan-content.c). */
/* Sets the first element's content properties from @values (NaN: the
 * element's default) and --detect (s->detect), each checked against the
 * element's range, and reads back what it holds into @s. */
gboolean scan_content_resolve (ScanSettings * s, const gdouble values[],
    GError ** error);
/* Sets them on a scorer of the pipeline; @rule: the first one, whose
 * states count (the others measure nothing else). */
void scan_content_configure_element (GstElement * e, const ScanSettings * s,
    gboolean rule);
/* The settings of the content state machine, as the element derives them
 * from its properties and the frame rate. */
void scan_content_settings (const ScanSettings * s, gint fps_n, gint fps_d,
    SharpnessContentSettings * c);
/* "black,freeze", "black", "none"...: --detect's spelling of @detect. */
gchar *scan_content_detect_list (guint detect);

/* --merge (scan-merge.c): the outputs asked for in @cl from the JSON
 * parts it lists; returns the exit status. */
gint scan_merge_run (const ScanCommandLine * cl);

/* Inputs (scan-inputs.c). */
/* Appends the inputs listed in @path ('-': standard input), one per line,
 * blank lines and '#' comments skipped. */
gboolean scan_inputs_read_list (const gchar * path, GPtrArray * inputs,
    GError ** error);
/* Replaces each directory of @inputs by its image and video files,
 * sorted by name (a directory without any stays, to be reported). */
void scan_inputs_expand (GPtrArray * inputs);
/* Whether @input names a URI: it has a scheme GStreamer reads (or is
 * "scheme://..."), and no file of that name exists (a file always wins:
 * "take:2.ts" is a file name). */
gboolean scan_inputs_is_uri (const gchar * input);
/* The URI of @input (a URI, a file name, or '-' for standard input), or
 * NULL. */
gchar *scan_inputs_to_uri (const gchar * input);

/* Output files (scan-outfile.c): written to a temporary file beside
 * them, renamed over them once complete; '-' is standard output, and an
 * existing output that is no regular file (a device, a FIFO) is written
 * in place; a symbolic link's target is written. */
typedef struct _ScanOutFile ScanOutFile;
/* NULL, with a message on standard error, when it cannot be written. */
ScanOutFile *scan_outfile_open (const gchar * path);
/* A temporary file beside @beside, removed by commit or discard. */
ScanOutFile *scan_outfile_open_side (const ScanOutFile * beside,
    const gchar * what);
/* Writes @s (NULL @o: nothing) and empties it. */
void scan_outfile_write (ScanOutFile * o, GString * s);
/* Appends what @side holds to @o. */
gboolean scan_outfile_append (ScanOutFile * o, ScanOutFile * side);
/* Closes @o and puts it in place; FALSE, with a message naming it and
 * the error, when writing failed (nothing is put in place then).  NULL
 * @o: TRUE. */
gboolean scan_outfile_commit (ScanOutFile * o);
/* Closes @o and removes what was written. */
void scan_outfile_discard (ScanOutFile * o);
/* Removes every temporary file; async-signal-safe. */
void scan_outfile_discard_all_signal_safe (void);
/* From now on SIGINT and SIGTERM remove every temporary file and exit at
 * once with 128 + the signal: what a second signal does (async-signal-
 * safe: a first signal's handler may call it). */
void scan_outfile_exit_on_signals (void);
/* @handler for SIGINT and SIGTERM (sigaction, not restarted), where no
 * main loop runs to take them as GLib sources. */
void scan_outfile_on_signals (void (*handler) (int));

G_END_DECLS
#endif /* SCAN_SETUP_H */
