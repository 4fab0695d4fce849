/* sharpness-scan: what main sets up before the scan: the inputs
 * (scan-inputs.c), GPU decoding (scan-gpu.c) and the output files
 * (scan-outfile.c).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SCAN_SETUP_H
#define SCAN_SETUP_H

#include <stdio.h>

#include "scan.h"

G_BEGIN_DECLS

/* Inputs. */
/* Appends the inputs listed in @path ('-': standard input), one per line,
 * blank lines and '#' comments skipped. */
gboolean scan_inputs_read_list (const gchar * path, GPtrArray * inputs,
    GError ** error);
/* The URI of @input (a URI or a file name), or NULL. */
gchar *scan_inputs_to_uri (const gchar * input);

/* GPU decoding. */
/* Sets the rank of the NVIDIA decoders: above the software decoders (GPU
 * decoding, frames in CUDA memory) or out of autoplugging (--cpu).
 * Returns TRUE when there is at least one. */
gboolean scan_gpu_rank_decoders (guint rank);
/* Whether cudasharpness can score on a GPU; the CUDA context it made goes
 * to @context, for the pipelines to share. */
gboolean scan_gpu_backend_usable (GstContext ** context);

/* Output files. */
/* Opens @path for writing ('-': standard output); NULL with a message on
 * standard error when it cannot be. */
FILE *scan_outfile_open (const gchar * path);
/* Flushes and closes @f; FALSE, with a message, when writing failed. */
gboolean scan_outfile_close (FILE * f, const gchar * path);

G_END_DECLS
#endif /* SCAN_SETUP_H */
