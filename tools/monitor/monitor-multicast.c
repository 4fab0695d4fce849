/* sharpness-monitor: source-specific multicast URIs.
 *
 * A channel may name the one sender it takes a group from as
 * udp://SOURCE@GROUP:PORT (the form of VLC, FFmpeg's udp:// "sources"
 * aside, and of most broadcast headends' configurations).  udpsrc reads
 * only the host of its URI: the part before '@' was silently dropped and
 * the group joined for any source, so that a second sender on the group
 * (a misrouted feed, a backup encoder) reached the channel unseen.  Since
 * GStreamer 1.24, udpsrc joins for one source with its multicast-source
 * property (IP_ADD_SOURCE_MEMBERSHIP), which its URI takes as the query
 * `?multicast-source=+SOURCE`: the URI is rewritten to that.  Older
 * udpsrc has no such join: the channel is refused, with the reason, at
 * --check-config and at start rather than joined for any source.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gio/gio.h>

#include "monitor.h"

/* Whether this GStreamer's udpsrc joins for one source (1.24's
 * multicast-source), asked of the element itself: a plugin of another
 * version than the core may be installed. */
static gboolean
udpsrc_has_multicast_source (void)
{
  static gsize once = 0;
  static gboolean has = FALSE;

  if (g_once_init_enter (&once)) {
    GstElement *e = gst_element_factory_make ("udpsrc", NULL);

    if (e) {
      has = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
          "multicast-source") != NULL;
      gst_object_unref (e);
    }
    g_once_init_leave (&once, 1);
  }
  return has;
}

gboolean
monitor_uri_for_source (const gchar * uri, gchar ** out, GError ** error)
{
  GUri *u;
  const gchar *user, *host;
  GInetAddress *src = NULL, *group = NULL;
  gboolean ok = FALSE;

  *out = NULL;
  u = g_uri_parse (uri, G_URI_FLAGS_NON_DNS | G_URI_FLAGS_ENCODED, NULL);
  user = u ? g_uri_get_userinfo (u) : NULL;
  /* udp://@GROUP:PORT (an empty source, the README's form) is a join for
   * any source, as the sender meant; rtsp://USER@ and the like are not
   * multicast sources. */
  if (!u || !user || !*user || !(g_str_equal (g_uri_get_scheme (u), "udp")
          || g_str_equal (g_uri_get_scheme (u), "rtp"))) {
    *out = g_strdup (uri);
    g_clear_pointer (&u, g_uri_unref);
    return TRUE;
  }
  host = g_uri_get_host (u);
  src = g_inet_address_new_from_string (user);
  group = host ? g_inet_address_new_from_string (host) : NULL;
  if (!src || !group || !g_inet_address_get_is_multicast (group) ||
      g_inet_address_get_family (src) != g_inet_address_get_family (group))
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "'%s': a source-specific multicast URI is udp://SOURCE@GROUP:PORT, "
        "SOURCE a unicast address and GROUP a multicast group of the same "
        "family", uri);
  else if (!g_str_equal (g_uri_get_scheme (u), "udp"))
    /* rtpsrc parses its URI itself and has no source filter. */
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "'%s': source-specific multicast is taken on udp:// only (rtpsrc "
        "joins any source); use udp://SOURCE@GROUP:PORT for MPEG-TS, or a "
        "source fragment (udpsrc multicast-source=+SOURCE ! ...)", uri);
  else if (!udpsrc_has_multicast_source ())
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "'%s': source-specific multicast needs GStreamer >= 1.24 (udpsrc's "
        "multicast-source; this udpsrc would join %s for any source)", uri,
        host);
  else {
    const gchar *query = g_uri_get_query (u);
    GUri *w = g_uri_build (G_URI_FLAGS_ENCODED, "udp", NULL, host,
        g_uri_get_port (u), g_uri_get_path (u), NULL,
        g_uri_get_fragment (u));
    gchar *base = g_uri_to_string (w);
    gchar *host_part = g_inet_address_to_string (src);

    /* The query's own parameters first, the source last. */
    *out = g_strdup_printf ("%s?%s%smulticast-source=+%s", base,
        query ? query : "", query && *query ? "&" : "", host_part);
    g_free (host_part);
    g_free (base);
    g_uri_unref (w);
    ok = TRUE;
  }
  g_clear_object (&src);
  g_clear_object (&group);
  g_uri_unref (u);
  return ok;
}
