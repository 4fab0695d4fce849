/* The tools' default blur rule, one for sharpness-scan and
 * sharpness-monitor (a channel's alarms and a recording's segments must
 * agree), chosen and measured on the labelled detection suite
 * (docs/validation/detection.md): the content-normalised blur effect with
 * an absolute threshold (a shot out of focus from its first frame has no
 * sharp frame to be judged against) and the relative rule (milder blurs
 * within a shot); in builds without it, the Laplacian with the relative
 * rule.  Other metrics default to the relative rule.  The absolute level
 * was chosen on tuning data alone (issue 30: the held-out suite's tuning
 * half and the labelled suite): the middle of the levels that lose no blur
 * there and spare sharp soft shots that 0.5 called blurry.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TOOL_RULE_H
#define SHARPNESS_TOOL_RULE_H

#include "sharpness-blur-detector.h"

#define SHARPNESS_TOOL_DEFAULT_METRIC "blur-effect"
#define SHARPNESS_TOOL_FALLBACK_METRIC "laplacian"
#define SHARPNESS_TOOL_BLUR_EFFECT_THRESHOLD 0.52
#define SHARPNESS_TOOL_BLUR_EFFECT_RELATIVE 0.8
/* CPBD confirms blur-effect's absolute level (the element's
 * cpbd-threshold), chosen on tuning data alone (issue 30). */
#define SHARPNESS_TOOL_BLUR_EFFECT_CPBD SHARPNESS_CPBD_THRESHOLD
/* And no textured tile of the frame is sharp (the element's
 * focus-threshold), chosen on tuning data alone (issue 30). */
#define SHARPNESS_TOOL_BLUR_EFFECT_FOCUS SHARPNESS_FOCUS_THRESHOLD
#define SHARPNESS_TOOL_DEFAULT_RELATIVE 0.6
#define SHARPNESS_TOOL_DEFAULT_WINDOW 25
/* Seconds: the shortest blurry stretch reported (the monitor's blur
 * onset). */
#define SHARPNESS_TOOL_DEFAULT_MIN_DURATION 0.5
#define SHARPNESS_TOOL_DEFAULT_MAX_GAP 2

#endif /* SHARPNESS_TOOL_RULE_H */
