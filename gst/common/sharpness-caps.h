/* Why an element refuses caps, said once and only when it matters.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Caps queries and accept-caps are asked speculatively (autopluggers,
 * capsfilters, renegotiation attempts): a refusal there is no failure yet,
 * so it is only logged and kept.  It becomes one ERROR, saying which caps
 * were refused and what the element reads, when negotiation really fails:
 * a CAPS event is refused, or a buffer arrives with no caps accepted.
 */
#ifndef SHARPNESS_CAPS_H
#define SHARPNESS_CAPS_H

#include <gst/gst.h>

#include "sharpness-formats.h"

G_BEGIN_DECLS

/* Why @templ (a pad's template caps, of the formats @use reads) refuses
 * @caps, in words a user can act on, naming @element_name; NULL when it
 * does not (the refusal then comes from elsewhere) or when the caps name
 * no single format. */
gchar *sharpness_caps_explain_refusal (const gchar * element_name,
    SharpnessFormatUse use, GstCaps * caps, GstCaps * templ);

/* The refusal state of one sink pad.  The element's object lock guards
 * it: queries, events and buffers come from different threads. */
typedef struct
{
  GstElement *element;
  GstPad *pad;
  SharpnessFormatUse use;
  gchar *refusal;               /* the last refusal's explanation */
  GstCaps *event_caps;          /* caps of the CAPS event in delivery */
  gboolean posted;              /* the error was posted */
  gboolean negotiated;          /* caps were accepted (streaming thread) */
} SharpnessCapsRefusal;

/* Watches @sinkpad's CAPS events, so that an accept-caps refusing them is
 * told from a speculative one. */
void sharpness_caps_refusal_init (SharpnessCapsRefusal * r,
    GstElement * element, GstPad * sinkpad, SharpnessFormatUse use);
void sharpness_caps_refusal_clear (SharpnessCapsRefusal * r);
/* From start: nothing negotiated, nothing posted. */
void sharpness_caps_refusal_reset (SharpnessCapsRefusal * r);

/* A speculative refusal of @caps: logged and kept. */
void sharpness_caps_refusal_note (SharpnessCapsRefusal * r, GstCaps * caps);
/* Accept-caps refused @caps: noted, and posted when they are the caps of
 * the CAPS event being delivered. */
void sharpness_caps_refusal_accept_failed (SharpnessCapsRefusal * r,
    GstPadDirection direction, GstCaps * caps);
/* After the parent class answered a sink caps query: an upstream filter
 * the element shares nothing with is where negotiation fails, and no
 * accept-caps will follow to explain it. */
void sharpness_caps_refusal_caps_query (SharpnessCapsRefusal * r,
    GstPadDirection direction, GstQuery * query);
/* set_caps accepted (TRUE) or refused (FALSE: one error naming @caps). */
void sharpness_caps_refusal_set_caps (SharpnessCapsRefusal * r,
    GstCaps * caps, gboolean accepted);
/* A buffer arrived: posts the kept refusal when nothing was negotiated. */
void sharpness_caps_refusal_buffer (SharpnessCapsRefusal * r);

G_END_DECLS
#endif /* SHARPNESS_CAPS_H */
