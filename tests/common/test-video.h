/* GStreamer helpers of the element and glue tests: an element's properties
 * as text, a harness's video caps and frames of random bytes.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEST_VIDEO_H
#define TEST_VIDEO_H

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "test-rng.h"

/* Sets @props on @element: "name=value name=value ...", each value as
 * gst-launch-1.0 parses it; NULL or "" sets none.  A word without '='
 * fails the test (a misspelt list would otherwise test the defaults). */
void test_video_set_properties (GstElement * element, const gchar * props);

/* Raw video of @format, @width x @height at 25 frames/s, as @h's source
 * caps. */
void test_video_set_caps (GstHarness * h, GstVideoFormat format, gint width,
    gint height);

/* A frame laid out as @info says whose every byte is random (chroma,
 * padding, v210's unused bits), from @rng. */
GstBuffer *test_video_random_frame (const GstVideoInfo * info, TestRng * rng);

#endif /* TEST_VIDEO_H */
