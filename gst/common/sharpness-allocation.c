/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-allocation.h"

gboolean
sharpness_allocation_offer_pool (GstQuery * query,
    SharpnessPoolFactory make_pool, gpointer user_data)
{
  GstCaps *caps = NULL;
  gboolean need_pool = FALSE;
  GstBufferPool *pool;
  GstStructure *config;
  GstAllocator *allocator = NULL;
  GstAllocationParams params;
  guint size = 0, min = 0, max = 0;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps || !need_pool || gst_query_get_n_allocation_pools (query) > 0)
    return FALSE;

  pool = make_pool (caps, user_data);
  if (!pool)
    return FALSE;

  /* The size the pool settled on (a pool may round it up). */
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, &min, &max);
  gst_buffer_pool_config_get_allocator (config, &allocator, &params);

  gst_query_add_allocation_pool (query, pool, size, min, max);
  /* GstBaseSrc and most sources reconfigure the pool they take with the
   * query's first allocator, NULL (system memory) when it names none: name
   * the pool's own, with the pool only, and only where nobody named one. */
  if (allocator && gst_query_get_n_allocation_params (query) == 0)
    gst_query_add_allocation_param (query, allocator, &params);
  gst_structure_free (config);
  gst_object_unref (pool);
  return TRUE;
}
