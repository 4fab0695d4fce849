/* bench-frames.c: the natural frames (tiles of photographs laid out
 * per frame) and the rings of buffers made from them: system memory, CUDA
 * memory.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-sharpness.h"

gboolean
tiles_load (Tiles * t, const gchar * path)
{
  gchar *contents, *body;
  gsize length, tile_bytes;

  if (!g_file_get_contents (path, &contents, &length, NULL))
    return FALSE;
  body = memchr (contents, '\n', MIN (length, 64));
  if (!body || sscanf (contents, "sharpness-tiles %d %d", &t->size,
          &t->count) != 2 || t->size < 2 || t->size % 2 || t->count < 1) {
    g_free (contents);
    return FALSE;
  }
  body++;
  tile_bytes = (gsize) t->size * t->size * 3 / 2;
  if (length - (body - contents) != tile_bytes * t->count) {
    g_free (contents);
    return FALSE;
  }
  t->data = g_memdup2 (body, tile_bytes * t->count);
  g_free (contents);
  return TRUE;
}

static guint32
hash3 (guint32 a, guint32 b, guint32 c)
{
  guint32 h = a * 0x9e3779b1u ^ (b + 0x7f4a7c15u) * 0x85ebca6bu ^
      (c + 0x165667b1u) * 0xc2b2ae35u;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  return h;
}

/* Frame @index of a ring: a grid of tiles, each picked and mirrored by a
 * hash of (frame, cell), the grid shifted by an even per-frame offset. */
static void
compose_frame (const Tiles * t, guint index, gint w, gint h, guint8 * y,
    guint8 * u, guint8 * v)
{
  const gint ts = t->size, cs = ts / 2;
  const gsize tile_bytes = (gsize) ts * ts * 3 / 2;
  const guint32 shift = hash3 (index, 0xffff, 0xffff);
  const gint ox = (shift % ts) & ~1, oy = ((shift >> 16) % ts) & ~1;
  gint px, py;

  for (py = 0; py < h; py++) {
    gint gy = py + oy;
    for (px = 0; px < w; px++) {
      gint gx = px + ox;
      guint32 k = hash3 (index, gx / ts, gy / ts);
      const guint8 *tile = t->data + (k % t->count) * tile_bytes;
      gint tx = gx % ts, ty = gy % ts;

      if (k & (1u << 30))
        tx = ts - 1 - tx;
      if (k & (1u << 31))
        ty = ts - 1 - ty;
      y[(gsize) py * w + px] = tile[ty * ts + tx];
      if (!(px & 1) && !(py & 1)) {
        gsize c = (gsize) (py / 2) * (w / 2) + px / 2;
        u[c] = tile[ts * ts + (ty / 2) * cs + tx / 2];
        v[c] = tile[ts * ts + cs * cs + (ty / 2) * cs + tx / 2];
      }
    }
  }
}

void
ring_init (Ring * ring, const Tiles * tiles, const Resolution * res)
{
  guint i;

  ring->res = res;
  gst_video_info_set_format (&ring->i420, GST_VIDEO_FORMAT_I420, res->width,
      res->height);
  gst_video_info_set_format (&ring->nv12, GST_VIDEO_FORMAT_NV12, res->width,
      res->height);
  ring->n = CLAMP (RING_BYTES / GST_VIDEO_INFO_SIZE (&ring->nv12) + 1,
      RING_MIN, RING_MAX);
  ring->frames = g_new0 (guint8 *, ring->n);
  for (i = 0; i < ring->n; i++) {
    gsize luma = (gsize) res->width * res->height;
    ring->frames[i] = g_malloc (luma * 3 / 2);
    compose_frame (tiles, i, res->width, res->height, ring->frames[i],
        ring->frames[i] + luma, ring->frames[i] + luma + luma / 4);
  }
}

void
ring_clear (Ring * ring)
{
  guint i;

  for (i = 0; i < ring->n; i++)
    g_free (ring->frames[i]);
  g_free (ring->frames);
}

/* Writes frame @i of @ring into a mapped NV12 or I420 video frame. */
static void
ring_write (const Ring * ring, guint i, GstVideoFrame * f)
{
  const gint w = ring->res->width, h = ring->res->height;
  const guint8 *y = ring->frames[i], *u = y + (gsize) w * h,
      *v = u + (gsize) w * h / 4;
  gint row, col;

  for (row = 0; row < h; row++)
    memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, 0) +
        (gsize) row * GST_VIDEO_FRAME_PLANE_STRIDE (f, 0), y + (gsize) row * w,
        w);
  for (row = 0; row < h / 2; row++) {
    const guint8 *ur = u + (gsize) row * (w / 2), *vr = v + (gsize) row * (w / 2);

    if (GST_VIDEO_FRAME_FORMAT (f) == GST_VIDEO_FORMAT_NV12) {
      guint8 *uv = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, 1) +
          (gsize) row * GST_VIDEO_FRAME_PLANE_STRIDE (f, 1);
      for (col = 0; col < w / 2; col++) {
        uv[2 * col] = ur[col];
        uv[2 * col + 1] = vr[col];
      }
    } else {
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, 1) +
          (gsize) row * GST_VIDEO_FRAME_PLANE_STRIDE (f, 1), ur, w / 2);
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, 2) +
          (gsize) row * GST_VIDEO_FRAME_PLANE_STRIDE (f, 2), vr, w / 2);
    }
  }
}

void
fill_buffer (const Ring * ring, guint i, GstBuffer * buf,
    const GstVideoInfo * info)
{
  GstVideoFrame f;

  if (!gst_video_frame_map (&f, info, buf, GST_MAP_WRITE))
    g_error ("cannot map a ring buffer for writing");
  ring_write (ring, i, &f);
  gst_video_frame_unmap (&f);
}

GstBuffer **
make_sysmem_buffers (const Ring * ring, const GstVideoInfo * info)
{
  GstBuffer **bufs = g_new0 (GstBuffer *, ring->n);
  guint i;

  for (i = 0; i < ring->n; i++) {
    bufs[i] = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
    fill_buffer (ring, i, bufs[i], info);
  }
  return bufs;
}

/* @n NV12 frames in CUDA memory of cuda_ctx, frame i holding picture
 * i % ring->n, uploaded once, with the pitched layout in a GstVideoMeta. */
GstBuffer **
make_cuda_buffers_n (const Ring * ring, guint n)
{
  GstCudaAllocator *alloc =
      (GstCudaAllocator *) gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
  GstBuffer **bufs = g_new0 (GstBuffer *, n);
  guint i;

  if (!alloc)
    g_error ("no CUDA allocator");
  for (i = 0; i < n; i++) {
#if GST_CHECK_VERSION (1, 24, 0)
    GstMemory *mem = gst_cuda_allocator_alloc (alloc, cuda_ctx, NULL,
        &ring->nv12);
#else
    GstMemory *mem = gst_cuda_allocator_alloc (alloc, cuda_ctx, &ring->nv12);
#endif
    GstCudaMemory *cmem = GST_CUDA_MEMORY_CAST (mem);
    GstMapInfo map;

    if (!mem)
      g_error ("cannot allocate CUDA memory");
    bufs[i] = gst_buffer_new ();
    gst_buffer_append_memory (bufs[i], mem);
    gst_buffer_add_video_meta_full (bufs[i], GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_NV12, ring->res->width, ring->res->height, 2,
        cmem->info.offset, cmem->info.stride);
    fill_buffer (ring, i % ring->n, bufs[i], &cmem->info);
    /* The first CUDA map uploads the staged frame; later maps do not. */
    if (!gst_memory_map (mem, &map, GST_MAP_READ | GST_MAP_CUDA))
      g_error ("cannot upload a CUDA ring buffer");
    gst_memory_unmap (mem, &map);
  }
  gst_object_unref (alloc);
  return bufs;
}

GstBuffer **
make_cuda_buffers (const Ring * ring)
{
  return make_cuda_buffers_n (ring, ring->n);
}

void
free_buffers (GstBuffer ** bufs, guint n)
{
  guint i;

  for (i = 0; bufs && i < n; i++)
    gst_clear_buffer (&bufs[i]);
  g_free (bufs);
}
