/* sharpness-monitor's HTTP server (libsoup 3, on the main loop): the
 * routes, the limits and the token.  Nothing in a URL reaches the file
 * system: every path is matched against fixed routes, and the page is
 * compiled in.  Request bodies are refused past MAX_BODY before they are
 * read; mutating calls need --api-token (Authorization: Bearer), compared
 * in constant time.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gio/gnetworking.h>
#include <libsoup/soup.h>

#include "monitor-app.h"
#include "monitor-http.h"

#define MAX_BODY (64 * 1024)
#define MAX_HEADERS_BYTES (16 * 1024)
/* Connections waiting to be accepted.  libsoup's own listen() asks for
 * GLib's default of 10: of 200 clients connecting at once (a thumbnail
 * each), the kernel dropped the SYNs past the tenth and those clients
 * waited 1 s for their retransmission (ListenOverflows).  The kernel
 * caps it at net.core.somaxconn. */
#define LISTEN_BACKLOG 1024

struct _MonitorHttp
{
  Monitor *monitor;
  SoupServer *server;
};

void
monitor_http_reply (SoupServerMessage * msg, guint status,
    const gchar * type, GString * body)
{
  SoupMessageHeaders *h = soup_server_message_get_response_headers (msg);

  soup_message_headers_replace (h, "Cache-Control", "no-store");
  soup_message_headers_replace (h, "X-Content-Type-Options", "nosniff");
  soup_server_message_set_status (msg, status, NULL);
  if (body) {
    gsize len = body->len;
    soup_server_message_set_response (msg, type, SOUP_MEMORY_TAKE,
        g_string_free (body, FALSE), len);
  }
}

void
monitor_http_error (SoupServerMessage * msg, guint status,
    const gchar * message)
{
  GString *b = g_string_new ("{\"error\":");

  sharpness_json_string (b, message);
  g_string_append (b, "}\n");
  monitor_http_reply (msg, status, "application/json", b);
}

gboolean
monitor_http_token_ok (Monitor * m, SoupServerMessage * msg)
{
  const gchar *token = m->settings->api_token;
  const gchar *auth = soup_message_headers_get_one
      (soup_server_message_get_request_headers (msg), "Authorization");
  gsize n, k;
  guchar diff;

  if (!token || !auth || !g_str_has_prefix (auth, "Bearer "))
    return FALSE;
  auth += 7;
  n = strlen (token);
  k = strlen (auth);
  /* Constant time over the token's length: every byte is compared. */
  diff = n != k;
  for (gsize i = 0; i < n; i++)
    diff |= (guchar) token[i] ^ (guchar) (i < k ? auth[i] : 0);
  return diff == 0;
}

/* A body too large is refused before it is read: the server would read
 * it all first, so the connection is taken over, answered 413 and
 * closed. */
static void
refuse_body (SoupServerMessage * msg)
{
  static const gchar reply[] = "HTTP/1.1 413 Payload Too Large\r\n"
      "Content-Type: application/json\r\nConnection: close\r\n"
      "Content-Length: 99\r\n\r\n"
      "{\"error\":\"request body larger than 64 KiB, or chunked: send at "
      "most 64 KiB with a Content-Length\"}\n";
  GIOStream *io = soup_server_message_steal_connection (msg);

  if (!io)
    return;
  /* A few bytes into an empty socket buffer: does not block. */
  g_output_stream_write_all (g_io_stream_get_output_stream (io), reply,
      sizeof (reply) - 1, NULL, NULL, NULL);
  g_io_stream_close (io, NULL, NULL);
  g_object_unref (io);
}

static void
got_headers (SoupServerMessage * msg, gpointer data)
{
  SoupMessageHeaders *h = soup_server_message_get_request_headers (msg);
  goffset len = soup_message_headers_get_content_length (h);
  SoupMessageHeadersIter it;
  const gchar *name, *value;
  gsize total = 0;

  soup_message_headers_iter_init (&it, h);
  while (soup_message_headers_iter_next (&it, &name, &value))
    total += strlen (name) + strlen (value) + 4;
  if (total > MAX_HEADERS_BYTES)
    monitor_http_error (msg, 431,
        "request headers larger than 16 KiB");
  else if (len > MAX_BODY || (soup_message_headers_get_encoding (h) ==
          SOUP_ENCODING_CHUNKED && g_strcmp0 (soup_server_message_get_method
              (msg), "GET")))
    refuse_body (msg);
}

static void
request_started (SoupServer * server, SoupServerMessage * msg, gpointer data)
{
  g_signal_connect (msg, "got-headers", G_CALLBACK (got_headers), data);
}

/* soup_server_listen() as libsoup does it, with a larger backlog. */
static gboolean
listen_on (SoupServer * server, GSocketAddress * sa, GError ** error)
{
  GSocketFamily family = g_socket_address_get_family (sa);
  GSocket *sock = g_socket_new (family, G_SOCKET_TYPE_STREAM,
      G_SOCKET_PROTOCOL_DEFAULT, error);
  gboolean ok;

  if (!sock)
    return FALSE;
  if (family == G_SOCKET_FAMILY_IPV6)
    g_socket_set_option (sock, IPPROTO_IPV6, IPV6_V6ONLY, TRUE, NULL);
  g_socket_set_listen_backlog (sock, LISTEN_BACKLOG);
  ok = g_socket_bind (sock, sa, TRUE, error) && g_socket_listen (sock, error)
      && soup_server_listen_socket (server, sock, 0, error);
  g_object_unref (sock);
  return ok;
}

static void
handler (SoupServer * server, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer data)
{
  MonitorHttp *h = data;

  /* A status set while the headers came in (a limit) stands. */
  if (soup_server_message_get_status (msg) >= 400)
    return;
  monitor_api_route (h->monitor, msg, path, query);
}

MonitorHttp *
monitor_http_new (Monitor * m, GError ** error)
{
  MonitorHttp *h = g_new0 (MonitorHttp, 1);
  const gchar *listen = m->settings->listen;
  const gchar *colon = strrchr (listen, ':');
  gchar *host;
  guint64 port;
  GInetAddress *addr;
  GSocketAddress *sa;
  gboolean ok;

  if (!colon || !g_ascii_string_to_unsigned (colon + 1, 10, 0, 65535, &port,
          NULL)) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--listen '%s': ADDR:PORT expected (e.g. 127.0.0.1:8080, "
        "[::1]:8080, 0.0.0.0:8080 to expose)", listen);
    g_free (h);
    return NULL;
  }
  host = g_strndup (listen, colon - listen);
  if (host[0] == '[' && host[strlen (host) - 1] == ']') {
    memmove (host, host + 1, strlen (host));
    host[strlen (host) - 1] = '\0';
  }
  addr = g_inet_address_new_from_string (host);
  if (!addr) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--listen '%s': '%s' is not an IP address", listen, host);
    g_free (host);
    g_free (h);
    return NULL;
  }
  g_free (host);
  h->monitor = m;
  h->server = soup_server_new ("server-header", "sharpness-monitor", NULL);
  g_signal_connect (h->server, "request-started",
      G_CALLBACK (request_started), h);
  soup_server_add_handler (h->server, NULL, handler, h, NULL);
  sa = g_inet_socket_address_new (addr, (guint16) port);
  ok = listen_on (h->server, sa, error);
  g_object_unref (sa);
  g_object_unref (addr);
  if (!ok) {
    g_prefix_error (error, "--listen %s: ", listen);
    monitor_http_free (h);
    return NULL;
  }
  return h;
}

void
monitor_http_free (MonitorHttp * h)
{
  if (!h)
    return;
  soup_server_disconnect (h->server);
  g_object_unref (h->server);
  g_free (h);
}
