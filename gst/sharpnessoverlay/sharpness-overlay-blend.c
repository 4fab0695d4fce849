/* sharpnessoverlay: the translucent tile grid blended straight into the
 * frame's planes.
 *
 * GStreamer's generic blender (gst_video_blend, behind
 * gst_video_overlay_composition_blend) unpacks every line of the frame to
 * AYUV/ARGB, converts the overlay line, blends with a division per
 * component and packs the line back: 79 ms for a full-frame grid on a
 * 1080p I420 frame.  The grid is a few constant colours at one alpha, so
 * each plane sample needs one table look-up.  The arithmetic is that of
 * video-blend.c (GStreamer 1.22 to 1.26), so the result is the same to the
 * level:
 *
 * - the overlay colour is converted to YUV with video-blend's BT.709
 *   integer matrix (matrix_rgb_to_yuv);
 * - 8-bit, opaque destination: out = (c * a + in * (255 - a)) / 255,
 *   truncated;
 * - 8-bit packed formats with a fourth byte (RGBA ... xBGR; the generic
 *   blender treats the padding byte of RGBx etc. as alpha too): where that
 *   byte is not 255, video-blend's "over" of a non-premultiplied source on a
 *   non-premultiplied destination, alpha byte included;
 * - 16-bit unpacked formats (P010_10LE, I420_10LE): source alpha a << 8,
 *   colour c << 8, destination expanded to 16 bits as the unpackers do and
 *   truncated back to 10 bits as the packers do;
 * - subsampled chroma: the sample gets the colour of the luma pixel at the
 *   top-left of its footprint (x << w_sub, y << h_sub), which is what the
 *   packers keep (the even pixel of the even line).  At a tile edge that
 *   falls inside a footprint (odd edges in 4:2:0), the chroma sample follows
 *   the tile holding its top-left luma pixel.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-overlay-blend.h"

#include <string.h>

void
sharpness_overlay_blend_init (SharpnessOverlayBlend * blend)
{
  memset (blend, 0, sizeof (*blend));
  blend->div_alpha = -1;
}

void
sharpness_overlay_blend_clear (SharpnessOverlayBlend * blend)
{
  g_free (blend->div);
  g_free (blend->konst);
  g_free (blend->quot);
  g_free (blend->rem);
  g_free (blend->col_x);
  g_free (blend->row_y);
  g_free (blend->col_s);
  sharpness_overlay_blend_init (blend);
}

typedef enum
{
  KIND_NONE,
  KIND_PLANES8,                 /* one 8-bit sample per component, no alpha */
  KIND_PACKED4,                 /* 4 bytes a pixel, the x or A byte alpha */
  KIND_P010,
  KIND_I420_10LE,
} BlendKind;

static BlendKind
blend_kind (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
    case GST_VIDEO_FORMAT_Y42B:
    case GST_VIDEO_FORMAT_Y444:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
      return KIND_PLANES8;
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_ARGB:
    case GST_VIDEO_FORMAT_ABGR:
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx:
    case GST_VIDEO_FORMAT_xRGB:
    case GST_VIDEO_FORMAT_xBGR:
      return KIND_PACKED4;
    case GST_VIDEO_FORMAT_P010_10LE:
      return KIND_P010;
    case GST_VIDEO_FORMAT_I420_10LE:
      return KIND_I420_10LE;
    default:
      return KIND_NONE;
  }
}

gboolean
sharpness_overlay_blend_supports (GstVideoFormat format)
{
  return blend_kind (format) != KIND_NONE;
}

/* ------------------------------------------------------------------------ */
/* Runs: a span [x0, x1) of plane samples of one row in one colour. */

typedef struct
{
  const SharpnessOverlayBlend *b;
  guint comp;                   /* 0..2, for the per-component kinds */
  gint pstride;                 /* bytes between samples */
  gint off[3];                  /* KIND_PACKED4: byte of each component */
  gint off_a;                   /* KIND_PACKED4: the alpha (or x) byte */
  guint alpha;
  BlendKind kind;
} RunCtx;

typedef void (*RunFunc) (const RunCtx * ctx, guint8 * row, gint x0, gint x1,
    guint colour);

static void
run_planes8 (const RunCtx * ctx, guint8 * row, gint x0, gint x1,
    guint colour)
{
  guint i = colour * 3 + ctx->comp;
  guint8 q = ctx->b->quot[i];
  const guint8 *t = ctx->b->div + (gsize) ctx->b->rem[i] * 256;
  gint ps = ctx->pstride;

  if (ps == 1) {
    guint8 *p = row + x0, *end = row + x1;
    for (; p < end; p++)
      *p = q + t[*p];
  } else {
    guint8 *p = row + (gsize) x0 * ps, *end = row + (gsize) x1 * ps;
    for (; p < end; p += ps)
      *p = q + t[*p];
  }
}

static void
run_packed4 (const RunCtx * ctx, guint8 * row, gint x0, gint x1,
    guint colour)
{
  const SharpnessOverlayBlend *b = ctx->b;
  guint i = colour * 3;
  const guint8 *t0 = b->div + (gsize) b->rem[i] * 256;
  const guint8 *t1 = b->div + (gsize) b->rem[i + 1] * 256;
  const guint8 *t2 = b->div + (gsize) b->rem[i + 2] * 256;
  guint8 q0 = b->quot[i], q1 = b->quot[i + 1], q2 = b->quot[i + 2];
  gint o0 = ctx->off[0], o1 = ctx->off[1], o2 = ctx->off[2], oa = ctx->off_a;
  guint a = ctx->alpha;
  guint8 *p = row + (gsize) x0 * 4, *end = row + (gsize) x1 * 4;

  for (; p < end; p += 4) {
    guint adst = p[oa];

    if (G_LIKELY (adst == 255)) {
      p[o0] = q0 + t0[p[o0]];
      p[o1] = q1 + t1[p[o1]];
      p[o2] = q2 + t2[p[o2]];
    } else {
      /* video-blend.c's OVER00_8BIT, alpha byte included. */
      guint final = a + adst * (255 - a) / 255;
      guint fa = final ? final : 1;
      guint c;

      p[oa] = (guint8) final;
      c = (b->konst[i] + p[o0] * adst * (255 - a) / 255) / fa;
      p[o0] = (guint8) MIN (c, 255);
      c = (b->konst[i + 1] + p[o1] * adst * (255 - a) / 255) / fa;
      p[o1] = (guint8) MIN (c, 255);
      c = (b->konst[i + 2] + p[o2] * adst * (255 - a) / 255) / fa;
      p[o2] = (guint8) MIN (c, 255);
    }
  }
}

/* 16-bit: out16 = ((c << 8) * (a << 8) + in16 * (65535 - (a << 8))) / 65535
 * (video-blend.c's 16-bit loop over an opaque destination), in16 the
 * sample as the unpacker expands it, the result packed as the packer
 * truncates it.  The sum is at most 65535 * 65535: 32 bits suffice. */
static void
run_16 (const RunCtx * ctx, guint8 * row, gint x0, gint x1, guint colour)
{
  guint32 k = ctx->b->konst[colour * 3 + ctx->comp];
  guint32 n = 65535 - (ctx->alpha << 8);
  gint ps = ctx->pstride;
  guint8 *p = row + (gsize) x0 * ps, *end = row + (gsize) x1 * ps;

  if (ctx->kind == KIND_P010) {
    /* 10 bits in the high bits of a 16-bit word. */
    for (; p < end; p += ps) {
      guint32 in = GST_READ_UINT16_LE (p);
      guint32 out;

      in |= in >> 10;
      out = (k + in * n) / 65535;
      GST_WRITE_UINT16_LE (p, (guint16) (MIN (out, 65535) & 0xffc0));
    }
  } else {
    /* 10 bits in the low bits. */
    for (; p < end; p += ps) {
      guint32 in = (GST_READ_UINT16_LE (p) << 6) & 0xffff;
      guint32 out;

      in |= in >> 10;
      out = (k + in * n) / 65535;
      GST_WRITE_UINT16_LE (p, (guint16) (MIN (out, 65535) >> 6));
    }
  }
}

/* ------------------------------------------------------------------------ */
/* The grid, walked over the samples of one plane (or of the packed plane):
 * the colour of a sample is that of the frame pixel at the top-left of its
 * footprint, as drawn on the ARGB canvas (gstsharpnessoverlay.c,
 * draw_tiles): its tile's colour, or the grid line's on the first row and
 * column of a tile of at least 8 x 8 pixels (but the frame's first ones). */

static void
emit (const RunCtx * ctx, RunFunc fn, guint8 * row, gint x0, gint x1,
    guint colour, gboolean in_hole, gint h0, gint h1)
{
  if (x0 >= x1)
    return;
  if (!in_hole || x1 <= h0 || x0 >= h1) {
    fn (ctx, row, x0, x1, colour);
    return;
  }
  if (x0 < h0)
    fn (ctx, row, x0, h0, colour);
  if (x1 > h1)
    fn (ctx, row, h1, x1, colour);
}

static void
walk (SharpnessOverlayBlend * b, guint cols, guint rows, guint8 * base,
    gint stride, gint width, gint height, gint wsub, gint hsub,
    const GstVideoRectangle * hole, const RunCtx * ctx, RunFunc fn)
{
  guint line = cols * rows;
  gint step = 1 << wsub;
  gint h0 = 0, h1 = 0;
  guint r = 0;

  /* The samples of tile column c: those whose luma x lies in it. */
  for (guint c = 0; c <= cols; c++)
    b->col_s[c] = (b->col_x[c] + step - 1) >> wsub;
  b->col_s[cols] = width;
  if (hole) {
    h0 = (hole->x + step - 1) >> wsub;
    h1 = (hole->x + hole->w + step - 1) >> wsub;
  }

  for (gint y = 0; y < height; y++) {
    gint ly = y << hsub;
    guint8 *row = base + (gsize) y * stride;
    gint th;
    gboolean hline, in_hole;

    while (r + 1 < rows && ly >= b->row_y[r + 1])
      r++;
    th = b->row_y[r + 1] - b->row_y[r];
    hline = r > 0 && ly == b->row_y[r];
    in_hole = hole && ly >= hole->y && ly < hole->y + hole->h;

    for (guint c = 0; c < cols; c++) {
      gint x0 = b->col_s[c], x1 = b->col_s[c + 1];
      gboolean big = th >= 8 && b->col_x[c + 1] - b->col_x[c] >= 8;

      if (x0 >= x1)
        continue;
      if (big && hline) {
        emit (ctx, fn, row, x0, x1, line, in_hole, h0, h1);
        continue;
      }
      if (big && c > 0 && (x0 << wsub) == b->col_x[c]) {
        emit (ctx, fn, row, x0, x0 + 1, line, in_hole, h0, h1);
        x0++;
      }
      emit (ctx, fn, row, x0, x1, r * cols + c, in_hole, h0, h1);
    }
  }
}

/* ------------------------------------------------------------------------ */

static void
ensure_div (SharpnessOverlayBlend * b, guint alpha)
{
  if (b->div_alpha == (gint) alpha)
    return;
  if (!b->div)
    b->div = g_malloc (255 * 256);
  for (guint r = 0; r < 255; r++)
    for (guint in = 0; in < 256; in++)
      b->div[r * 256 + in] = (guint8) ((r + in * (255 - alpha)) / 255);
  b->div_alpha = (gint) alpha;
}

static void
ensure_arrays (SharpnessOverlayBlend * b, guint colours, guint cols,
    guint rows)
{
  if (colours > b->colours_alloc) {
    b->konst = g_renew (guint32, b->konst, colours * 3);
    b->quot = g_renew (guint8, b->quot, colours * 3);
    b->rem = g_renew (guint8, b->rem, colours * 3);
    b->colours_alloc = colours;
  }
  if (cols + 1 > b->cols_alloc) {
    b->col_x = g_renew (gint, b->col_x, cols + 1);
    b->col_s = g_renew (gint, b->col_s, cols + 1);
    b->cols_alloc = cols + 1;
  }
  if (rows + 1 > b->rows_alloc) {
    b->row_y = g_renew (gint, b->row_y, rows + 1);
    b->rows_alloc = rows + 1;
  }
}

/* The colour in the frame's components: R, G, B for RGB formats; Y, U, V
 * with video-blend.c's matrix_rgb_to_yuv otherwise (gray: Y). */
static void
colour_components (gboolean rgb, guint32 argb, gint out[3])
{
  gint r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, bl = argb & 0xff;

  if (rgb) {
    out[0] = r;
    out[1] = g;
    out[2] = bl;
  } else {
    out[0] = CLAMP ((47 * r + 157 * g + 16 * bl + 4096) >> 8, 0, 255);
    out[1] = CLAMP ((-26 * r - 87 * g + 112 * bl + 32768) >> 8, 0, 255);
    out[2] = CLAMP ((112 * r - 102 * g - 10 * bl + 32768) >> 8, 0, 255);
  }
}

/**
 * sharpness_overlay_blend_tiles:
 * @blend: tables kept between frames
 * @frame: the frame, mapped for writing
 * @cols: @rows: the grid (partition of docs/reference/tiles.md)
 * @tile_rgb: (array): the colour of each tile, row-major, 0xRRGGBB (higher
 *   bits ignored)
 * @line_rgb: the colour of the grid lines
 * @alpha: the alpha of the grid, 1..255
 * @hole: (nullable): frame pixels left alone (where an overlay drawn later
 *   replaces the grid)
 *
 * Blends the grid as gst_video_overlay_composition_blend() would blend it
 * from an ARGB rectangle.  Returns FALSE (frame untouched) for a format
 * sharpness_overlay_blend_supports() refuses.
 */
gboolean
sharpness_overlay_blend_tiles (SharpnessOverlayBlend * blend,
    GstVideoFrame * frame, guint cols, guint rows, const guint32 * tile_rgb,
    guint32 line_rgb, guint8 alpha, const GstVideoRectangle * hole)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  BlendKind kind = blend_kind (GST_VIDEO_FRAME_FORMAT (frame));
  gint64 fw = GST_VIDEO_FRAME_WIDTH (frame);
  gint64 fh = GST_VIDEO_FRAME_HEIGHT (frame);
  guint n = cols * rows, ncomp;
  gboolean rgb = GST_VIDEO_FORMAT_INFO_IS_RGB (finfo);
  RunCtx ctx = { 0, };

  if (kind == KIND_NONE || cols == 0 || rows == 0 || alpha == 0 ||
      fw <= 0 || fh <= 0)
    return FALSE;

  ensure_arrays (blend, n + 1, cols, rows);
  if (kind != KIND_P010 && kind != KIND_I420_10LE)
    ensure_div (blend, alpha);
  for (guint c = 0; c <= cols; c++)
    blend->col_x[c] = (gint) (c * fw / cols);
  for (guint r = 0; r <= rows; r++)
    blend->row_y[r] = (gint) (r * fh / rows);

  for (guint i = 0; i <= n; i++) {
    gint v[3];

    colour_components (rgb, i < n ? tile_rgb[i] : line_rgb, v);
    for (guint k = 0; k < 3; k++) {
      guint ca = (guint) v[k] * alpha;

      if (kind == KIND_P010 || kind == KIND_I420_10LE) {
        blend->konst[i * 3 + k] = ((guint32) v[k] << 8) * ((guint32) alpha
            << 8);
      } else {
        blend->konst[i * 3 + k] = ca;
        blend->quot[i * 3 + k] = (guint8) (ca / 255);
        blend->rem[i * 3 + k] = (guint8) (ca % 255);
      }
    }
  }

  ctx.b = blend;
  ctx.alpha = alpha;
  ctx.kind = kind;

  if (kind == KIND_PACKED4) {
    gint used = 0;

    for (guint k = 0; k < 3; k++) {
      ctx.off[k] = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, k);
      used += ctx.off[k];
    }
    /* The fourth byte: offsets 0..3 add up to 6. */
    ctx.off_a = 6 - used;
    walk (blend, cols, rows, GST_VIDEO_FRAME_PLANE_DATA (frame, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0), (gint) fw, (gint) fh, 0, 0,
        hole, &ctx, run_packed4);
    return TRUE;
  }

  ncomp = GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo);
  for (guint k = 0; k < MIN (ncomp, 3); k++) {
    guint8 *data = GST_VIDEO_FRAME_COMP_DATA (frame, k);

    /* P010's format info gives V the byte offset of its high byte (1, for
     * its 10 bits): the 16-bit word starts at byte 2 of the UV pair. */
    if (kind == KIND_P010 && k == 2)
      data = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame,
          GST_VIDEO_FORMAT_INFO_PLANE (finfo, k)) + 2;
    ctx.comp = k;
    ctx.pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, k);
    walk (blend, cols, rows, data,
        GST_VIDEO_FRAME_COMP_STRIDE (frame, k),
        GST_VIDEO_FRAME_COMP_WIDTH (frame, k),
        GST_VIDEO_FRAME_COMP_HEIGHT (frame, k),
        GST_VIDEO_FORMAT_INFO_W_SUB (finfo, k),
        GST_VIDEO_FORMAT_INFO_H_SUB (finfo, k), hole, &ctx,
        kind == KIND_PLANES8 ? run_planes8 : run_16);
  }
  return TRUE;
}
