/* black-freeze-tool: raw video frames through the FFmpeg-exact black and
 * freeze detectors (analysis/sharpness-black.h, sharpness-freeze.h), one
 * JSON object per line: the settings, every frame (black count, ratio, SAD
 * against the reference, MAFD printed with %.17g, the decisions) and every
 * event.  tests/analysis/test_black_freeze_ffmpeg.py compares it with
 * FFmpeg and with a numpy oracle.
 *
 *   black-freeze-tool [options] FILE|-
 *     --format NAME      FFmpeg pixel format of the raw frames (gray,
 *                        gray10le, yuv420p, yuvj420p, yuv420p10le,
 *                        yuv422p, uyvy422, nv12, v210, ...)
 *     --width W --height H
 *     --fps N/D          frame rate (default 25/1)
 *     --time-base N/D    FFmpeg's time base of the pts (default D/N)
 *     --no-time-base     give the detectors no time base (ns arithmetic)
 *     --pts-file FILE    one pts a line, in time-base ticks (default: the
 *                        frame index)
 *     --color-range pc|tv|unspecified  the frames' range flag (default
 *                        unspecified)
 *     --range-rule 7.1|5.1 FFmpeg's rule for full range (default 7.1)
 *     --pix-th X --pic-th X --black-d SECONDS   blackdetect's options
 *     --freeze-n X[dB] --freeze-d SECONDS        freezedetect's options
 *   A YUV4MPEG2 stream (on stdin or in FILE) brings its own size, rate,
 *   format (C420jpeg/420mpeg2/420paldv/420/422/444/mono and their p10
 *   variants) and XCOLORRANGE.
 *
 * Raw frames are FFmpeg's rawvideo layout: planes one after the other, rows
 * without padding, chroma planes ceil (h / 2^log2_chroma_h) rows; v210
 * rows of (w + 47) / 48 * 128 bytes.  v210 is counted in place, and its
 * freeze SAD is the element's (SHARPNESS_FREEZE_FORMAT_V210: the packed
 * words read in place); every frame it is also unpacked to yuv422p10le as
 * FFmpeg's decoder does and summed as that, and the tool stops if the two
 * sums differ.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sharpness-black.h"
#include "sharpness-freeze.h"

typedef struct
{
  const gchar *format;
  gint width, height;
  gint64 fps_n, fps_d;
  SharpnessTimeBase tb;
  gboolean have_tb, no_tb;
  const gchar *pts_file;
  SharpnessBlackRange range;
  SharpnessBlackRangeRule rule;
  gdouble pix_th, pic_th;
  guint64 black_d, freeze_d;
  gdouble freeze_n;
  const gchar *input;
} Options;

static void G_GNUC_NORETURN
die (const gchar * fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  fputs ("black-freeze-tool: ", stderr);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
  exit (2);
}

static void
parse_ratio (const gchar * s, gint64 * n, gint64 * d, const gchar * what)
{
  gchar *end;

  *n = g_ascii_strtoll (s, &end, 10);
  *d = 1;
  if (*end == '/' || *end == ':')
    *d = g_ascii_strtoll (end + 1, &end, 10);
  if (*end || *n <= 0 || *d <= 0)
    die ("%s: '%s' is not N/D with N, D > 0", what, s);
}

/* "2", "0.5", "1.968633" seconds to ns, exactly (up to 9 decimals). */
static guint64
parse_seconds (const gchar * s, const gchar * what)
{
  guint64 sec = 0, frac = 0;
  gint digits = 0;
  const gchar *p = s;

  if (!g_ascii_isdigit (*p))
    die ("%s: '%s' is not a number of seconds", what, s);
  while (g_ascii_isdigit (*p))
    sec = sec * 10 + (guint64) (*p++ - '0');
  if (*p == '.') {
    p++;
    while (g_ascii_isdigit (*p)) {
      if (digits < 9) {
        frac = frac * 10 + (guint64) (*p - '0');
        digits++;
      }
      p++;
    }
  }
  if (*p)
    die ("%s: '%s' is not a number of seconds", what, s);
  while (digits++ < 9)
    frac *= 10;
  return sec * 1000000000u + frac;
}

static gdouble
parse_double (const gchar * s, const gchar * what)
{
  gchar *end;
  gdouble v = g_ascii_strtod (s, &end);

  if (end == s || *end)
    die ("%s: '%s' is not a number", what, s);
  return v;
}

/* ---- YUV4MPEG2 ------------------------------------------------------- */

static void
parse_y4m_header (FILE * f, Options * o)
{
  gchar line[1024];
  gchar **tok;

  if (!fgets (line, sizeof line, f) || !g_str_has_prefix (line, "YUV4MPEG2"))
    die ("not a YUV4MPEG2 stream");
  g_strchomp (line);
  tok = g_strsplit (line, " ", -1);
  o->format = "yuv420p";
  for (gchar ** t = tok + 1; *t; t++) {
    const gchar *v = *t + 1;
    switch (**t) {
      case 'W':
        o->width = atoi (v);
        break;
      case 'H':
        o->height = atoi (v);
        break;
      case 'F':
        parse_ratio (v, &o->fps_n, &o->fps_d, "y4m F");
        break;
      case 'C':
        if (g_str_has_prefix (v, "420p10"))
          o->format = "yuv420p10le";
        else if (g_str_has_prefix (v, "422p10"))
          o->format = "yuv422p10le";
        else if (g_str_has_prefix (v, "444p10"))
          o->format = "yuv444p10le";
        else if (g_str_has_prefix (v, "420"))
          o->format = "yuv420p";
        else if (g_str_has_prefix (v, "422"))
          o->format = "yuv422p";
        else if (g_str_has_prefix (v, "444"))
          o->format = "yuv444p";
        else if (g_str_equal (v, "mono"))
          o->format = "gray";
        else if (g_str_equal (v, "mono16"))
          o->format = "gray16le";
        else if (g_str_equal (v, "mono10"))
          o->format = "gray10le";
        else
          die ("y4m colorspace C%s not supported", v);
        break;
      case 'X':
        if (g_str_equal (*t, "XCOLORRANGE=FULL"))
          o->range = SHARPNESS_BLACK_RANGE_FULL;
        else if (g_str_equal (*t, "XCOLORRANGE=LIMITED"))
          o->range = SHARPNESS_BLACK_RANGE_LIMITED;
        break;
      default:
        break;
    }
  }
  g_strfreev (tok);
}

/* ---- Frame layout ---------------------------------------------------- */

typedef struct
{
  gboolean v210;
  SharpnessFreezeLayout compare;        /* what freezedetect compares */
  SharpnessFreezeLayout packed;         /* v210: the same, in place */
  gsize plane_offset[4], plane_stride[4], frame_size;
  gsize v210_stride;
  /* The luma plane for the black count. */
  SharpnessPlane luma;
  gsize luma_offset;
  SharpnessBlackFormatKind kind;
  gboolean countable;           /* not RGB */
} Layout;

static void
layout_init (Layout * l, const gchar * format, gint w, gint h)
{
  SharpnessFreezeFormat ff;
  gsize off = 0;

  memset (l, 0, sizeof *l);
  l->v210 = g_str_equal (format, "v210");
  ff = sharpness_freeze_format_from_name (l->v210 ? "yuv422p10le" : format);
  if (!sharpness_freeze_layout_init (&l->compare, ff, w, h))
    die ("unknown pixel format '%s' or bad size %dx%d", format, w, h);
  l->kind = g_str_has_prefix (format, "yuvj") ? SHARPNESS_BLACK_FORMAT_YUVJ :
      g_str_has_prefix (format, "gray") ? SHARPNESS_BLACK_FORMAT_GRAY :
      SHARPNESS_BLACK_FORMAT_YUV;

  if (l->v210) {
    if (!sharpness_freeze_layout_init (&l->packed,
            SHARPNESS_FREEZE_FORMAT_V210, w, h) ||
        l->packed.count != l->compare.count)
      die ("no v210 layout for %dx%d", w, h);
    l->v210_stride = (gsize) (w + 47) / 48 * 128;
    l->frame_size = l->v210_stride * h;
    /* The unpacked yuv422p10le frame (planes of the compared widths). */
    for (int p = 0; p < 3; p++) {
      l->plane_offset[p] = off;
      l->plane_stride[p] = (gsize) l->compare.width[p] * 2;
      off += l->plane_stride[p] * h;
    }
    l->countable = TRUE;
    return;
  }

  for (int p = 0; p < l->compare.n_planes; p++) {
    gint rows = (p == 1 || p == 2) ?
        (h + (1 << l->compare.log2_chroma_h) - 1) >> l->compare.log2_chroma_h :
        h;
    l->plane_offset[p] = off;
    l->plane_stride[p] = (gsize) l->compare.width[p] *
        l->compare.bytes_per_sample;
    off += l->plane_stride[p] * rows;
  }
  l->frame_size = off;

  l->countable = TRUE;
  l->luma = (SharpnessPlane) {
    .samples = l->compare.bytes_per_sample == 2 ? SHARPNESS_SAMPLES_Y16LE :
        SHARPNESS_SAMPLES_Y8,
    .stride = l->plane_stride[0],
    .width = w,
    .height = h,
    .pixel_stride = l->compare.bytes_per_sample,
    .depth = (int) l->compare.depth,
  };
  switch (ff) {
    case SHARPNESS_FREEZE_FORMAT_UYVY422:
      l->luma_offset = 1;
      l->luma.pixel_stride = 2;
      break;
    case SHARPNESS_FREEZE_FORMAT_YUYV422:
    case SHARPNESS_FREEZE_FORMAT_YVYU422:
      l->luma.pixel_stride = 2;
      break;
    case SHARPNESS_FREEZE_FORMAT_YA8:
    case SHARPNESS_FREEZE_FORMAT_RGB24:
    case SHARPNESS_FREEZE_FORMAT_BGR24:
    case SHARPNESS_FREEZE_FORMAT_ARGB:
    case SHARPNESS_FREEZE_FORMAT_RGBA:
    case SHARPNESS_FREEZE_FORMAT_ABGR:
    case SHARPNESS_FREEZE_FORMAT_BGRA:
    case SHARPNESS_FREEZE_FORMAT_GBRP:
    case SHARPNESS_FREEZE_FORMAT_GBRP9:
    case SHARPNESS_FREEZE_FORMAT_GBRP10:
    case SHARPNESS_FREEZE_FORMAT_GBRP12:
    case SHARPNESS_FREEZE_FORMAT_GBRP14:
    case SHARPNESS_FREEZE_FORMAT_GBRP16:
    case SHARPNESS_FREEZE_FORMAT_GBRAP:
    case SHARPNESS_FREEZE_FORMAT_GBRAP10:
    case SHARPNESS_FREEZE_FORMAT_GBRAP12:
    case SHARPNESS_FREEZE_FORMAT_GBRAP16:
      /* FFmpeg's blackdetect takes none of these (ya8 neither). */
      l->countable = FALSE;
      break;
    default:
      break;
  }
}

/* v210 to yuv422p10le planes (the compared layout of l). */
static void
unpack_v210 (const Layout * l, const guint8 * src, guint8 * dst)
{
  const gint w = l->compare.width[0], h = l->compare.height[0];

  for (gint y = 0; y < h; y++) {
    const guint8 *row = src + (gsize) y * l->v210_stride;
    guint16 *py = (guint16 *) (dst + l->plane_offset[0] + y *
        l->plane_stride[0]);
    guint16 *pu = (guint16 *) (dst + l->plane_offset[1] + y *
        l->plane_stride[1]);
    guint16 *pv = (guint16 *) (dst + l->plane_offset[2] + y *
        l->plane_stride[2]);
    for (gint x = 0; x < w; x++)
      py[x] = GUINT16_TO_LE (sharpness_black_v210_luma (row, x));
    /* Chroma pair k of a block: Cb at (word, field) (0,0) (1,1) (2,2),
     * Cr at (0,2) (2,0) (3,1). */
    for (gint c = 0; c < l->compare.width[1]; c++) {
      static const guint8 cb_w[3] = { 0, 1, 2 }, cb_f[3] = { 0, 1, 2 };
      static const guint8 cr_w[3] = { 0, 2, 3 }, cr_f[3] = { 2, 0, 1 };
      const guint8 *b = row + (gsize) (c / 3) * 16;
      gint k = c % 3;
      const guint8 *wu = b + cb_w[k] * 4, *wv = b + cr_w[k] * 4;
      guint32 u = wu[0] | (wu[1] << 8) | (wu[2] << 16) | ((guint32) wu[3]
          << 24);
      guint32 v = wv[0] | (wv[1] << 8) | (wv[2] << 16) | ((guint32) wv[3]
          << 24);
      pu[c] = GUINT16_TO_LE ((u >> (10 * cb_f[k])) & 0x3ff);
      pv[c] = GUINT16_TO_LE ((v >> (10 * cr_f[k])) & 0x3ff);
    }
  }
}

/* ---- Output ----------------------------------------------------------- */

static void
print_time (const gchar * key, guint64 t)
{
  if (t == SHARPNESS_TIME_NONE)
    printf (",\"%s\":null", key);
  else
    printf (",\"%s\":%" G_GUINT64_FORMAT, key, t);
}

static void
print_black_events (SharpnessBlackEvents e, const SharpnessBlackResult * r)
{
  if (e & SHARPNESS_BLACK_EVENT_RUN_START) {
    printf ("{\"type\":\"black_run_start\",\"frame\":%" G_GUINT64_FORMAT,
        r->start_frame);
    print_time ("start", r->start);
    printf ("}\n");
  }
  if (e & SHARPNESS_BLACK_EVENT_RUN_END) {
    printf ("{\"type\":\"black_run_end\",\"frame\":%" G_GUINT64_FORMAT
        ",\"start_frame\":%" G_GUINT64_FORMAT, r->end_frame, r->start_frame);
    print_time ("start", r->start);
    print_time ("end", r->end);
    print_time ("duration", r->duration);
    printf ("}\n");
  }
  if (e & SHARPNESS_BLACK_EVENT_INTERVAL) {
    printf ("{\"type\":\"black_interval\",\"start_frame\":%" G_GUINT64_FORMAT
        ",\"end_frame\":%" G_GUINT64_FORMAT ",\"at_eos\":%s",
        r->start_frame, r->end_frame, r->at_eos ? "true" : "false");
    print_time ("start", r->start);
    print_time ("end", r->end);
    print_time ("duration", r->duration);
    print_time ("last_frame_end", r->last_frame_end);
    printf ("}\n");
  }
}

static void
print_freeze_events (SharpnessFreezeEvents e, guint64 frame,
    const SharpnessFreezeResult * r)
{
  if (e & SHARPNESS_FREEZE_EVENT_START) {
    printf ("{\"type\":\"freeze_start\",\"frame\":%" G_GUINT64_FORMAT
        ",\"start_frame\":%" G_GUINT64_FORMAT, frame, r->start_frame);
    print_time ("start", r->start);
    printf ("}\n");
  }
  if (e & SHARPNESS_FREEZE_EVENT_END) {
    printf ("{\"type\":\"freeze_end\",\"frame\":%" G_GUINT64_FORMAT
        ",\"start_frame\":%" G_GUINT64_FORMAT ",\"duration_us\":%"
        G_GINT64_FORMAT, r->end_frame, r->start_frame, r->duration_us);
    print_time ("start", r->start);
    print_time ("end", r->end);
    print_time ("duration", r->duration);
    printf ("}\n");
  }
  if (e & SHARPNESS_FREEZE_EVENT_OPEN_AT_EOS) {
    printf ("{\"type\":\"freeze_open_at_eos\",\"start_frame\":%"
        G_GUINT64_FORMAT ",\"end_frame\":%" G_GUINT64_FORMAT,
        r->start_frame, r->end_frame);
    print_time ("start", r->start);
    print_time ("end", r->end);
    printf ("}\n");
  }
}

/* ---- Main ------------------------------------------------------------- */

static guint64
ns_of_ticks (gint64 ticks, const SharpnessTimeBase * tb)
{
  /* GStreamer's libav elements: av_rescale_q (pts, time_base, 1/1e9). */
  return (guint64) sharpness_ffmpeg_rescale (ticks, tb->num * 1000000000,
      tb->den);
}

int
main (int argc, char **argv)
{
  Options o = {
    .fps_n = 25,.fps_d = 1,
    .rule = SHARPNESS_BLACK_RANGE_RULE_FFMPEG_7_1,
    .pix_th = SHARPNESS_BLACK_DEFAULT_PIXEL_TH,
    .pic_th = SHARPNESS_BLACK_DEFAULT_PICTURE_TH,
    .black_d = SHARPNESS_BLACK_DEFAULT_MIN_DURATION,
    .freeze_d = SHARPNESS_FREEZE_DEFAULT_MIN_DURATION,
    .freeze_n = SHARPNESS_FREEZE_DEFAULT_NOISE,
  };
  FILE *in, *pts_in = NULL;
  Layout l;
  guint8 *buf, *ref, *unpacked = NULL, *unpacked_ref = NULL;
  guint black_th;
  gboolean full;
  SharpnessBlackSettings bs;
  SharpnessBlackDetector black;
  SharpnessFreezeSettings fs;
  SharpnessFreezeDetector freeze;
  SharpnessBlackResult br;
  SharpnessFreezeResult fr;
  guint64 index = 0;
  gboolean is_y4m;
  SharpnessBlackEvents be;

  for (int i = 1; i < argc; i++) {
    const gchar *a = argv[i];
#define ARG() (i + 1 < argc ? argv[++i] : (die ("%s needs a value", a), ""))
    if (g_str_equal (a, "--format"))
      o.format = ARG ();
    else if (g_str_equal (a, "--width"))
      o.width = atoi (ARG ());
    else if (g_str_equal (a, "--height"))
      o.height = atoi (ARG ());
    else if (g_str_equal (a, "--fps"))
      parse_ratio (ARG (), &o.fps_n, &o.fps_d, a);
    else if (g_str_equal (a, "--time-base")) {
      parse_ratio (ARG (), &o.tb.num, &o.tb.den, a);
      o.have_tb = TRUE;
    } else if (g_str_equal (a, "--no-time-base"))
      o.no_tb = TRUE;
    else if (g_str_equal (a, "--pts-file"))
      o.pts_file = ARG ();
    else if (g_str_equal (a, "--color-range")) {
      const gchar *v = ARG ();
      if (g_str_equal (v, "pc"))
        o.range = SHARPNESS_BLACK_RANGE_FULL;
      else if (g_str_equal (v, "tv"))
        o.range = SHARPNESS_BLACK_RANGE_LIMITED;
      else if (g_str_equal (v, "unspecified"))
        o.range = SHARPNESS_BLACK_RANGE_UNSPECIFIED;
      else
        die ("--color-range: pc, tv or unspecified, not '%s'", v);
    } else if (g_str_equal (a, "--range-rule")) {
      const gchar *v = ARG ();
      if (g_str_equal (v, "5.1"))
        o.rule = SHARPNESS_BLACK_RANGE_RULE_FFMPEG_5_1;
      else if (g_str_equal (v, "7.1"))
        o.rule = SHARPNESS_BLACK_RANGE_RULE_FFMPEG_7_1;
      else
        die ("--range-rule: 5.1 or 7.1, not '%s'", v);
    } else if (g_str_equal (a, "--pix-th"))
      o.pix_th = parse_double (ARG (), a);
    else if (g_str_equal (a, "--pic-th"))
      o.pic_th = parse_double (ARG (), a);
    else if (g_str_equal (a, "--black-d"))
      o.black_d = parse_seconds (ARG (), a);
    else if (g_str_equal (a, "--freeze-d"))
      o.freeze_d = parse_seconds (ARG (), a);
    else if (g_str_equal (a, "--freeze-n")) {
      const gchar *v = ARG ();
      if (!sharpness_freeze_parse_noise (v, &o.freeze_n))
        die ("--freeze-n: '%s' is not a ratio in [0, 1] or a level in dB", v);
    } else if (a[0] == '-' && a[1] == '-')
      die ("unknown option %s", a);
    else
      o.input = a;
#undef ARG
  }
  if (!o.input)
    die ("no input: give a raw or y4m file, or - for stdin");
  in = g_str_equal (o.input, "-") ? stdin : fopen (o.input, "rb");
  if (!in)
    die ("cannot open %s: %s", o.input, g_strerror (errno));

  /* A y4m stream announces itself; a raw one needs the options. */
  {
    int c = fgetc (in);
    ungetc (c, in);
    is_y4m = c == 'Y';
    if (is_y4m)
      parse_y4m_header (in, &o);
  }
  if (!o.format || o.width <= 0 || o.height <= 0)
    die ("--format, --width and --height are needed for raw input");
  if (!o.have_tb)
    o.tb = (SharpnessTimeBase) {
    o.fps_d, o.fps_n};
  if (o.pts_file && !(pts_in = fopen (o.pts_file, "r")))
    die ("cannot open %s: %s", o.pts_file, g_strerror (errno));

  layout_init (&l, o.format, o.width, o.height);
  buf = g_malloc (l.frame_size);
  ref = g_malloc (l.frame_size);
  if (l.v210) {
    gsize n = l.plane_offset[2] + l.plane_stride[2] * o.height;
    unpacked = g_malloc (n);
    unpacked_ref = g_malloc (n);
  }

  full = sharpness_black_ffmpeg_full_range (o.rule, l.kind, o.range);
  black_th = sharpness_black_pixel_threshold (o.pix_th, l.compare.depth, full);
  sharpness_black_settings_init (&bs);
  bs.picture_black_ratio_th = o.pic_th;
  bs.min_duration = o.black_d;
  if (!o.no_tb)
    bs.time_base = o.tb;
  sharpness_black_detector_init (&black, &bs);
  sharpness_freeze_settings_init (&fs);
  fs.noise = o.freeze_n;
  fs.min_duration = o.freeze_d;
  fs.depth = l.compare.depth;
  fs.fps_n = o.fps_n;
  fs.fps_d = o.fps_d;
  if (!o.no_tb)
    fs.time_base = o.tb;
  sharpness_freeze_detector_init (&freeze, &fs);

  printf ("{\"type\":\"settings\",\"format\":\"%s\",\"width\":%d,"
      "\"height\":%d,\"depth\":%u,\"full_range\":%s,\"black_threshold\":%u,"
      "\"pixels\":%" G_GUINT64_FORMAT ",\"compared_samples\":%"
      G_GUINT64_FORMAT ",\"noise\":%.17g,\"black_min_ticks\":%"
      G_GINT64_FORMAT ",\"time_base\":[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
      "],\"use_time_base\":%s}\n", o.format, o.width, o.height,
      l.compare.depth, full ? "true" : "false", black_th,
      (guint64) o.width * o.height, l.compare.count, o.freeze_n,
      black.min_ticks, o.tb.num, o.tb.den, o.no_tb ? "false" : "true");

  for (;;) {
    gint64 ticks = (gint64) index;
    guint64 pts, dur, count = 0, sad = 0;
    gboolean counted = FALSE;
    SharpnessFreezeEvents fe;
    const guint8 *planes[4] = { NULL }, *ref_planes[4] = { NULL };
    gsize strides[4] = { 0 };
    guint8 *cmp = l.v210 ? unpacked : buf;
    guint8 *cmp_ref = l.v210 ? unpacked_ref : ref;

    if (is_y4m) {
      /* "FRAME[ params]\n" before each frame. */
      gchar hdr[256];
      if (!fgets (hdr, sizeof hdr, in))
        break;
      if (!g_str_has_prefix (hdr, "FRAME"))
        die ("frame %" G_GUINT64_FORMAT ": bad y4m FRAME header", index);
    }
    if (fread (buf, 1, l.frame_size, in) != l.frame_size) {
      if (feof (in))
        break;
      die ("read error: %s", g_strerror (errno));
    }
    if (pts_in) {
      if (fscanf (pts_in, "%" G_GINT64_FORMAT, &ticks) != 1)
        die ("%s: no pts for frame %" G_GUINT64_FORMAT, o.pts_file, index);
    }
    pts = ns_of_ticks (ticks, &o.tb);
    dur = (guint64) sharpness_ffmpeg_rescale (o.fps_d, 1000000000, o.fps_n);

    if (l.v210) {
      count = sharpness_black_count_v210 (buf, l.v210_stride, o.width,
          o.height, black_th);
      counted = TRUE;
      unpack_v210 (&l, buf, unpacked);
    } else if (l.countable) {
      SharpnessPlane p = l.luma;
      p.data = buf + l.plane_offset[0] + l.luma_offset;
      counted = sharpness_black_count_plane (&p, black_th, &count);
    }

    for (int p = 0; p < l.compare.n_planes; p++) {
      planes[p] = cmp + l.plane_offset[p];
      ref_planes[p] = cmp_ref + l.plane_offset[p];
      strides[p] = l.plane_stride[p];
    }
    if (sharpness_freeze_detector_has_reference (&freeze)) {
      sad = sharpness_freeze_sad (&l.compare, planes, strides, ref_planes,
          strides);
      if (l.v210) {
        const guint8 *a[4] = { buf }, *b[4] = { ref };
        const gsize st[4] = { l.v210_stride };
        guint64 in_place = sharpness_freeze_sad (&l.packed, a, st, b, st);

        if (in_place != sad)
          die ("frame %" G_GUINT64_FORMAT ": v210 SAD in place %"
              G_GUINT64_FORMAT ", unpacked %" G_GUINT64_FORMAT, index,
              in_place, sad);
      }
    }
    fe = sharpness_freeze_detector_push (&freeze, pts, sad, l.compare.count,
        &fr);
    be = SHARPNESS_BLACK_EVENT_NONE;
    if (counted)
      be = sharpness_black_detector_push (&black, pts, dur, count,
          (guint64) o.width * o.height, &br);

    printf ("{\"type\":\"frame\",\"index\":%" G_GUINT64_FORMAT ",\"ticks\":%"
        G_GINT64_FORMAT, index, ticks);
    print_time ("pts", pts);
    if (counted)
      printf (",\"black\":%" G_GUINT64_FORMAT ",\"ratio\":%.17g,"
          "\"is_black\":%s", count, br.ratio, br.black ? "true" : "false");
    else
      printf (",\"black\":null");
    if (fr.compared)
      printf (",\"sad\":%" G_GUINT64_FORMAT ",\"mafd\":%.17g,\"frozen\":%s",
          fr.sad, fr.mafd, fr.frozen ? "true" : "false");
    else
      printf (",\"sad\":null,\"mafd\":null,\"frozen\":false");
    printf (",\"keep_reference\":%s}\n", fr.keep_reference ? "true" : "false");
    if (counted)
      print_black_events (be, &br);
    print_freeze_events (fe, index, &fr);

    if (fr.keep_reference) {
      guint8 *t;
      if (l.v210) {
        t = unpacked_ref;
        unpacked_ref = unpacked;
        unpacked = t;
      }
      t = ref;
      ref = buf;
      buf = t;
    }
    index++;
  }

  be = sharpness_black_detector_finish (&black, &br);
  print_black_events (be, &br);
  print_freeze_events (sharpness_freeze_detector_finish (&freeze, &fr), index,
      &fr);
  printf ("{\"type\":\"end\",\"frames\":%" G_GUINT64_FORMAT "}\n", index);

  g_free (buf);
  g_free (ref);
  g_free (unpacked);
  g_free (unpacked_ref);
  if (pts_in)
    fclose (pts_in);
  if (in != stdin)
    fclose (in);
  return 0;
}
