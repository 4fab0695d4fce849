/* sharpness-scan's decoding: which streams a decodebin (or uridecodebin)
 * decodes, what it found, and what its pads carry.  sharpness-monitor
 * still decodes with decodebin3: on decodebin it held fewer channels on
 * the GPU (docs/reference/gstreamer-versions.md); the audio stream below
 * is for it, when it moves.
 *
 * decodebin, not decodebin3: GStreamer 1.26's decodebin3 sometimes looks
 * for a decoder of a stream's caps as the demuxer gave them, before its
 * parser completes them, finds none and fails the stream ("No suitable
 * plugins found"; docs/reference/gstreamer-versions.md).  decodebin picks
 * each decoder for the parser's caps, but has no stream selection: the
 * policy attached here is one.  The first video stream is decoded, and
 * the first audio stream when asked (a monitor's silence alarm); every
 * other stream leaves decodebin as its demuxer (or, for a later stream of
 * a decoded kind, its parser) gives it, and the tool drains it.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TOOL_DECODE_H
#define SHARPNESS_TOOL_DECODE_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* The application message a decodebin with the policy posts once all its
 * pads are out and none of them is decoded video: the input has no video
 * stream (a video stream without a decoder has posted its missing-plugin
 * message before this). */
#define SHARPNESS_TOOL_DECODE_NO_VIDEO "sharpness-tool-decode-no-video"

typedef struct _SharpnessToolDecode SharpnessToolDecode;

/* What a pad of the decodebin carries. */
typedef enum
{
  SHARPNESS_TOOL_OUTPUT_OTHER,  /* a stream left undecoded: drain it */
  SHARPNESS_TOOL_OUTPUT_VIDEO,  /* decoded video */
  SHARPNESS_TOOL_OUTPUT_AUDIO   /* decoded audio */
} SharpnessToolOutput;

/* Attaches the policy to @decodebin (a decodebin or a uridecodebin, in
 * its bin, before it starts): the first video stream decoded, and the
 * first audio stream too when @audio.  It also reports the errors that
 * decodebin drops (sharpness-tool-dropped-errors.c).  Returns what it
 * finds, a reference for the caller (the bin keeps its own). */
SharpnessToolDecode *sharpness_tool_decode_attach (GstElement * decodebin,
    gboolean audio);
void sharpness_tool_decode_unref (SharpnessToolDecode * d);

/* What decodebin found so far (any thread): how many video streams asked
 * for a decoder (the first one is decoded; one that takes over from it in
 * a new program is not counted again), and the caps the decoded one's
 * decoder was picked for (NULL before; a reference). */
guint sharpness_tool_decode_video_streams (SharpnessToolDecode * d);
GstCaps *sharpness_tool_decode_video_caps (SharpnessToolDecode * d);

/* The codec of @caps for people ("H.264 (High Profile)"), or its media
 * type when GStreamer has no description; and whether it is a still
 * image's (JPEG, PNG...). */
gchar *sharpness_tool_codec_description (const GstCaps * caps);
gboolean sharpness_tool_codec_is_image (const GstCaps * caps);

/* What @pad, a pad of the decodebin, carries. */
SharpnessToolOutput sharpness_tool_decode_output (GstPad * pad);

/* Links @pad to @branch (a sink pad) if @branch is free: the first
 * decoded pad of a kind makes its branch; when a program changes (a new
 * PMT in MPEG-TS), decodebin replaces its pads and the new pad takes the
 * branch the old one left. */
gboolean sharpness_tool_decode_link (GstPad * pad, GstPad * branch);

/* Links @pad to a fakesink of its own in decodebin's bin, taken out
 * again when decodebin removes the pad (a program change): a stream
 * nobody reads must still flow, and end, for the pipeline to. */
void sharpness_tool_decode_drain (GstPad * pad);

/* Whether @msg is a missing-plugin message about the decoder of a stream
 * that is not video (audio, subtitles, data): the video still plays. */
gboolean sharpness_tool_decode_missing_not_video (GstMessage * msg);

G_END_DECLS
#endif /* SHARPNESS_TOOL_DECODE_H */
