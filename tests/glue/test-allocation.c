/* What cudasharpness (an in-place analyser) adds to the allocation query it
 * forwards downstream: gst/common/sharpness-allocation.c, the logic the CUDA
 * scorer offers its pinned pool with, driven without a GPU (a plain video
 * pool stands in for the pinned one).  The element used
 * to claim GstVideoMeta for downstream, put its pool ahead of downstream's
 * and offer its allocator without a pool; each case below failed then.
 * Its allocator goes with its pool: sources reconfigure a pool with the
 * query's first allocator (a GPU run caught the pinned pool handing out
 * system memory that way).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "sharpness-allocation.h"

static guint pools_made;

static GstBufferPool *
make_pool (GstCaps * caps, gpointer user_data)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_buffer_pool_config_set_params (config, caps, info.size, 0, 0);
  /* Stands in for the pinned allocator. */
  if (user_data)
    gst_buffer_pool_config_set_allocator (config, GST_ALLOCATOR (user_data),
        NULL);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  pools_made++;
  return pool;
}

static GstQuery *
new_query (gboolean need_pool)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw, format=NV12, "
      "width=64, height=48, framerate=25/1");
  GstQuery *query = gst_query_new_allocation (caps, need_pool);

  gst_caps_unref (caps);
  return query;
}

/* Downstream (a sink with a zero-copy pool) answered: its pool stays the
 * only one, and nothing else is added. */
GST_START_TEST (test_downstream_pool_stands)
{
  GstQuery *query = new_query (TRUE);
  GstBufferPool *theirs = gst_buffer_pool_new (), *first = NULL;

  gst_query_add_allocation_pool (query, theirs, 4096, 2, 0);
  pools_made = 0;
  fail_if (sharpness_allocation_offer_pool (query, make_pool, NULL));
  fail_unless_equals_int (pools_made, 0);
  fail_unless_equals_int (gst_query_get_n_allocation_pools (query), 1);
  gst_query_parse_nth_allocation_pool (query, 0, &first, NULL, NULL, NULL);
  fail_unless (first == theirs);
  gst_object_unref (first);
  fail_unless_equals_int (gst_query_get_n_allocation_params (query), 0);
  fail_if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL));
  gst_object_unref (theirs);
  gst_query_unref (query);
}

GST_END_TEST;

/* Downstream proposed no pool: ours is added, and no meta is claimed on
 * downstream's behalf. */
GST_START_TEST (test_pool_when_none)
{
  GstQuery *query = new_query (TRUE);
  GstBufferPool *pool = NULL;
  guint size = 0;

  pools_made = 0;
  fail_unless (sharpness_allocation_offer_pool (query, make_pool, NULL));
  fail_unless_equals_int (pools_made, 1);
  fail_unless_equals_int (gst_query_get_n_allocation_pools (query), 1);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, NULL, NULL);
  fail_unless (GST_IS_VIDEO_BUFFER_POOL (pool));
  fail_unless_equals_int (size, 64 * 48 * 3 / 2);
  gst_object_unref (pool);
  fail_unless_equals_int (gst_query_get_n_allocation_params (query), 0);
  fail_if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL));
  gst_query_unref (query);
}

GST_END_TEST;

/* Upstream did not ask for a pool: no bare allocator either (it would
 * allocate pinned memory per buffer). */
GST_START_TEST (test_nothing_without_need_pool)
{
  GstQuery *query = new_query (FALSE);

  pools_made = 0;
  fail_if (sharpness_allocation_offer_pool (query, make_pool, NULL));
  fail_unless_equals_int (pools_made, 0);
  fail_unless_equals_int (gst_query_get_n_allocation_pools (query), 0);
  fail_unless_equals_int (gst_query_get_n_allocation_params (query), 0);
  fail_unless_equals_int (gst_query_get_n_allocation_metas (query), 0);
  gst_query_unref (query);
}

GST_END_TEST;

/* Our pool goes with its allocator (sources reconfigure the pool they
 * take with the query's first allocator: without it, a pinned pool would
 * hand out ordinary memory), unless downstream already named one. */
GST_START_TEST (test_pool_names_its_allocator)
{
  GstAllocator *ours = gst_allocator_find (GST_ALLOCATOR_SYSMEM);
  GstAllocator *first = NULL;
  GstAllocationParams params;
  GstQuery *query = new_query (TRUE);

  fail_unless (sharpness_allocation_offer_pool (query, make_pool, ours));
  fail_unless_equals_int (gst_query_get_n_allocation_params (query), 1);
  gst_query_parse_nth_allocation_param (query, 0, &first, &params);
  fail_unless (first == ours);
  gst_object_unref (first);
  gst_query_unref (query);

  /* Downstream's allocator stands. */
  query = new_query (TRUE);
  gst_allocation_params_init (&params);
  gst_query_add_allocation_param (query, NULL, &params);
  fail_unless (sharpness_allocation_offer_pool (query, make_pool, ours));
  fail_unless_equals_int (gst_query_get_n_allocation_params (query), 1);
  gst_query_parse_nth_allocation_param (query, 0, &first, NULL);
  fail_unless (first == NULL);
  gst_query_unref (query);
  gst_object_unref (ours);
}

GST_END_TEST;

static Suite *
allocation_suite (void)
{
  Suite *s = suite_create ("allocation");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_downstream_pool_stands);
  tcase_add_test (tc, test_pool_when_none);
  tcase_add_test (tc, test_nothing_without_need_pool);
  tcase_add_test (tc, test_pool_names_its_allocator);
  return s;
}

GST_CHECK_MAIN (allocation);
