/* sharpness-monitor's HTTP server: libmicrohttpd, driven by the main loop,
 * with the limits that make it safe to leave listening.
 *
 * Why libmicrohttpd and not libsoup (docs/reference/sharpness-monitor.md,
 * "Security"): Debian 12's libsoup 3.2 server answered a 5,000-range
 * request with 556 MB (CVE-2025-32907), kept every connection the client
 * closed in CLOSE_WAIT, never timed idle connections out, and dropped its
 * listening source for good on the first failed accept().  libmicrohttpd
 * is made for embedding (the Prometheus C client serves with it): it has
 * a connection limit, an idle timeout and a per-connection memory pool of
 * its own, serves no ranges, and pauses accepting at the fd limit until a
 * connection closes.
 *
 * It runs without a thread of its own: its epoll descriptor and its next
 * timeout are one GSource of the main loop, so the routes (monitor-api.c)
 * run on the main thread, where the channels live.  Every request is read
 * whole (at most MAX_BODY, announced by Content-Length) before its route
 * runs; the Host is checked first (DNS rebinding); nothing in a URL
 * reaches the file system.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include <gio/gio.h>
#include <gio/gnetworking.h>
#include <microhttpd.h>

#include "monitor-http.h"

/* Request bodies, for every method: more is 413 before it is read. */
#define MAX_BODY (64 * 1024)
/* Each connection's memory pool: the request line and headers, and the
 * answer's headers; a request that does not fit is answered 431. */
#define CONNECTION_MEMORY (32 * 1024)
/* Open connections; past this, new ones wait in the backlog.  Above a
 * slowloris of a few hundred connections, with Prometheus and the page
 * still served. */
#define MAX_CONNECTIONS 512
/* Seconds a connection may stay silent (mid-request or idle between
 * keep-alive requests) before it is closed. */
#define IDLE_TIMEOUT 10
/* Connections waiting to be accepted: of 200 clients connecting at once,
 * GLib's default of 10 made the kernel drop the SYNs past the tenth
 * (ListenOverflows).  The kernel caps it at net.core.somaxconn. */
#define LISTEN_BACKLOG 1024
/* The server's own messages (an accept() that failed at the fd limit,
 * say): at most one each LOG_INTERVAL_US, with the count of those left
 * out. */
#define LOG_INTERVAL_US (60 * G_USEC_PER_SEC)

struct _MonitorHttpExchange
{
  MonitorHttp *http;
  struct MHD_Connection *connection;
  const gchar *method, *path;
  GByteArray *body;
  gboolean too_large;
  /* The answer. */
  guint status;
  gchar *type;
  GBytes *answer;
  GPtrArray *headers;           /* name, value, name, value... */
};

typedef struct
{
  GSource source;
  MonitorHttp *http;
} HttpSource;

struct _MonitorHttp
{
  const MonitorSettings *settings;
  /* The owner's routes: the server answers nothing by itself. */
  MonitorHttpRoute route;
  gpointer route_data;
  struct MHD_Daemon *daemon;
  GSource *source;
  /* The Host check: the listen address (lower case, no brackets). */
  gchar *listen_host;
  gboolean listen_any, listen_loopback;
  gint64 last_log_us;
  guint logs_left_out;
};

const gchar *
monitor_http_method (MonitorHttpExchange * x)
{
  return x->method;
}

const gchar *
monitor_http_path (MonitorHttpExchange * x)
{
  return x->path;
}

const gchar *
monitor_http_query (MonitorHttpExchange * x, const gchar * key)
{
  return MHD_lookup_connection_value (x->connection, MHD_GET_ARGUMENT_KIND,
      key);
}

const gchar *
monitor_http_body (MonitorHttpExchange * x, gsize * len)
{
  *len = x->body ? x->body->len : 0;
  return x->body ? (const gchar *) x->body->data : "";
}

void
monitor_http_header (MonitorHttpExchange * x, const gchar * name,
    const gchar * value)
{
  g_ptr_array_add (x->headers, g_strdup (name));
  g_ptr_array_add (x->headers, g_strdup (value));
}

void
monitor_http_reply_bytes (MonitorHttpExchange * x, MonitorHttpStatus status,
    const gchar * type, GBytes * body)
{
  x->status = status;
  g_free (x->type);
  x->type = g_strdup (type);
  g_clear_pointer (&x->answer, g_bytes_unref);
  x->answer = body ? g_bytes_ref (body) : NULL;
}

void
monitor_http_reply (MonitorHttpExchange * x, MonitorHttpStatus status,
    const gchar * type, GString * body)
{
  GBytes *b = body ? g_string_free_to_bytes (body) : NULL;

  monitor_http_reply_bytes (x, status, type, b);
  if (b)
    g_bytes_unref (b);
}

void
monitor_http_error (MonitorHttpExchange * x, MonitorHttpStatus status,
    const gchar * message)
{
  JsonBuilder *jb = json_builder_new ();
  GString *b = g_string_new (NULL);

  json_builder_begin_object (jb);
  sharpness_json_add_string (jb, "error", message);
  json_builder_end_object (jb);
  sharpness_json_write_builder (b, jb, SHARPNESS_JSON_COMPACT);
  g_string_append_c (b, '\n');
  monitor_http_reply (x, status, "application/json", b);
  g_object_unref (jb);
}

gboolean
monitor_http_token_ok (MonitorHttpExchange * x, const gchar * token)
{
  const gchar *auth = MHD_lookup_connection_value (x->connection,
      MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
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

/* The host of a Host header, without its port, lower case, IPv6 without
 * brackets; NULL when it is malformed. */
static gchar *
host_name (const gchar * host)
{
  const gchar *end;

  if (host[0] == '[') {
    end = strchr (host, ']');
    if (!end || (end[1] && end[1] != ':'))
      return NULL;
    return g_ascii_strdown (host + 1, end - host - 1);
  }
  end = strchr (host, ':');
  if (end && strchr (end + 1, ':'))
    return NULL;
  return g_ascii_strdown (host, end ? end - host : -1);
}

/* Whether a request naming @host is for this server: the listen address
 * itself; "localhost" or a loopback address where it listens on loopback
 * or every address; any address literal where it listens on every
 * address (a literal is not a name an attacker's DNS can rebind); and the
 * names of --allowed-host.  Another name is a browser sent here by DNS
 * rebinding, or a misdirected request: 421. */
static gboolean
host_allowed (MonitorHttp * h, const gchar * header)
{
  gchar *host = header ? host_name (header) : NULL;
  GInetAddress *addr;
  gboolean ok = FALSE;

  if (!host || !*host) {
    g_free (host);
    return FALSE;
  }
  addr = g_inet_address_new_from_string (host);
  if (g_str_equal (host, h->listen_host))
    ok = TRUE;
  else if (addr)
    ok = h->listen_any || (h->listen_loopback &&
        g_inet_address_get_is_loopback (addr));
  else if (g_str_equal (host, "localhost"))
    ok = h->listen_any || h->listen_loopback;
  for (gchar ** a = h->settings->allowed_hosts; !ok && a && *a; a++)
    ok = g_ascii_strcasecmp (host, *a) == 0;
  g_clear_object (&addr);
  g_free (host);
  return ok;
}

static void
free_answer_bytes (void *data)
{
  g_bytes_unref (data);
}

static enum MHD_Result
queue_answer (MonitorHttpExchange * x)
{
  struct MHD_Response *r;
  GBytes *b = x->answer ? g_bytes_ref (x->answer) : g_bytes_new (NULL, 0);
  gsize n;
  gconstpointer d = g_bytes_get_data (b, &n);
  enum MHD_Result ok;

  r = MHD_create_response_from_buffer_with_free_callback_cls (n,
      (void *) d, free_answer_bytes, b);
  if (!r) {
    g_bytes_unref (b);
    return MHD_NO;
  }
  MHD_add_response_header (r, "Cache-Control", "no-store");
  MHD_add_response_header (r, "X-Content-Type-Options", "nosniff");
  if (x->type)
    MHD_add_response_header (r, MHD_HTTP_HEADER_CONTENT_TYPE, x->type);
  for (guint i = 0; i + 1 < x->headers->len; i += 2)
    MHD_add_response_header (r, g_ptr_array_index (x->headers, i),
        g_ptr_array_index (x->headers, i + 1));
  ok = MHD_queue_response (x->connection, x->status, r);
  MHD_destroy_response (r);
  return ok;
}

/* Checks made on the headers alone, before any body is read; TRUE when
 * they answered. */
static gboolean
refused_on_headers (MonitorHttp * h, MonitorHttpExchange * x,
    const gchar * version)
{
  struct MHD_Connection *c = x->connection;
  const gchar *host = MHD_lookup_connection_value (c, MHD_HEADER_KIND,
      MHD_HTTP_HEADER_HOST);
  const gchar *length = MHD_lookup_connection_value (c, MHD_HEADER_KIND,
      MHD_HTTP_HEADER_CONTENT_LENGTH);
  guint64 n = 0;

  /* HTTP/1.0 clients may leave Host out; browsers never do. */
  if (!(host == NULL && g_str_equal (version, MHD_HTTP_VERSION_1_0)) &&
      !host_allowed (h, host)) {
    monitor_http_error (x, MONITOR_HTTP_MISDIRECTED, "this server does not "
        "answer for that Host: use its address, or start it with "
        "--allowed-host NAME");
    return TRUE;
  }
  if (MHD_lookup_connection_value (c, MHD_HEADER_KIND,
          MHD_HTTP_HEADER_TRANSFER_ENCODING) || (length &&
          (!g_ascii_string_to_unsigned (length, 10, 0, G_MAXUINT64, &n, NULL)
              || n > MAX_BODY))) {
    monitor_http_error (x, MONITOR_HTTP_PAYLOAD_TOO_LARGE, "request body "
        "larger than 64 KiB, or chunked: send at most 64 KiB with a "
        "Content-Length");
    return TRUE;
  }
  return FALSE;
}

static enum MHD_Result
access_handler (void *cls, struct MHD_Connection *connection,
    const char *url, const char *method, const char *version,
    const char *upload_data, size_t *upload_data_size, void **con_cls)
{
  MonitorHttp *h = cls;
  MonitorHttpExchange *x = *con_cls;

  if (!x) {
    x = g_new0 (MonitorHttpExchange, 1);
    x->http = h;
    x->connection = connection;
    x->method = method;
    x->path = url;
    x->headers = g_ptr_array_new_with_free_func (g_free);
    *con_cls = x;
    /* Answered now, the body unread: the server closes the connection
     * after the answer. */
    if (refused_on_headers (h, x, version))
      return queue_answer (x);
    return MHD_YES;
  }
  if (*upload_data_size) {
    /* Content-Length was checked: more than it announced cannot come. */
    if (!x->body)
      x->body = g_byte_array_new ();
    if (x->body->len + *upload_data_size > MAX_BODY)
      return MHD_NO;
    g_byte_array_append (x->body, (const guint8 *) upload_data,
        *upload_data_size);
    *upload_data_size = 0;
    return MHD_YES;
  }
  h->route (x, h->route_data);
  if (!x->status)
    monitor_http_error (x, MONITOR_HTTP_INTERNAL_ERROR, "no answer");
  return queue_answer (x);
}

static void
request_completed (void *cls, struct MHD_Connection *connection,
    void **con_cls, enum MHD_RequestTerminationCode toe)
{
  MonitorHttpExchange *x = *con_cls;

  if (!x)
    return;
  if (x->body)
    g_byte_array_unref (x->body);
  g_free (x->type);
  if (x->answer)
    g_bytes_unref (x->answer);
  g_ptr_array_unref (x->headers);
  g_free (x);
  *con_cls = NULL;
}

static void
server_log (void *cls, const char *fmt, va_list ap)
{
  MonitorHttp *h = cls;
  gint64 now = g_get_monotonic_time ();
  gchar *msg;

  if (h->last_log_us && now - h->last_log_us < LOG_INTERVAL_US) {
    h->logs_left_out++;
    return;
  }
  msg = g_strdup_vprintf (fmt, ap);
  g_strchomp (msg);
  if (h->logs_left_out)
    g_printerr ("sharpness-monitor: HTTP server: %s (and %u more messages "
        "in the last minute)\n", msg, h->logs_left_out);
  else
    g_printerr ("sharpness-monitor: HTTP server: %s\n", msg);
  g_free (msg);
  h->last_log_us = now;
  h->logs_left_out = 0;
}

/* The server's GSource: ready when its epoll descriptor is, or when its
 * next timeout (idle connections) comes, or RUN_INTERVAL_MS at the
 * latest.  That last one is what brings the server back after the fd
 * limit: when accept() fails, libmicrohttpd takes its listening socket
 * out of its epoll set until a connection closes, and puts it back only
 * in a later run, for which nothing else would wake the main loop (the
 * server stopped answering for good, under prlimit --nofile=64). */
#define RUN_INTERVAL_MS 250

static void
source_arm (HttpSource * s)
{
  MHD_UNSIGNED_LONG_LONG ms = RUN_INTERVAL_MS;

  if (MHD_get_timeout (s->http->daemon, &ms) != MHD_YES)
    ms = RUN_INTERVAL_MS;
  g_source_set_ready_time (&s->source, g_get_monotonic_time () +
      (gint64) MIN (ms, RUN_INTERVAL_MS) * 1000);
}

static gboolean
source_dispatch (GSource * source, GSourceFunc callback, gpointer data)
{
  HttpSource *s = (HttpSource *) source;

  MHD_run (s->http->daemon);
  source_arm (s);
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs source_funcs = {
  .dispatch = source_dispatch,
};

/* The listening socket, made here so that its errors are GLib's
 * ("Address already in use") and its backlog ours. */
static GSocket *
listen_socket (GInetAddress * addr, guint16 port, GError ** error)
{
  GSocketFamily family = g_inet_address_get_family (addr);
  GSocketAddress *sa = g_inet_socket_address_new (addr, port);
  GSocket *sock = g_socket_new (family, G_SOCKET_TYPE_STREAM,
      G_SOCKET_PROTOCOL_DEFAULT, error);

  if (sock) {
    if (family == G_SOCKET_FAMILY_IPV6)
      g_socket_set_option (sock, IPPROTO_IPV6, IPV6_V6ONLY, TRUE, NULL);
    g_socket_set_listen_backlog (sock, LISTEN_BACKLOG);
    if (!g_socket_bind (sock, sa, TRUE, error) ||
        !g_socket_listen (sock, error))
      g_clear_object (&sock);
  }
  g_object_unref (sa);
  return sock;
}

/* Every connection and channel needs descriptors: the soft limit is
 * raised to the hard one (systemd's default soft limit of 1024 is for
 * programs that still use select(); nothing here does). */
static void
raise_fd_limit (void)
{
  struct rlimit r;

  if (getrlimit (RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit (RLIMIT_NOFILE, &r);
  }
}

/* @listen's address and port, checked. */
static GInetAddress *
parse_listen (const gchar * listen, guint16 * port, GError ** error)
{
  const gchar *colon = strrchr (listen, ':');
  GInetAddress *addr = NULL;
  guint64 p;
  gchar *host;

  if (!colon || !g_ascii_string_to_unsigned (colon + 1, 10, 0, 65535, &p,
          NULL)) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--listen '%s': ADDR:PORT expected (e.g. 127.0.0.1:8080, "
        "[::1]:8080, 0.0.0.0:8080 to expose)", listen);
    return NULL;
  }
  host = g_strndup (listen, colon - listen);
  if (host[0] == '[' && host[strlen (host) - 1] == ']') {
    memmove (host, host + 1, strlen (host));
    host[strlen (host) - 1] = '\0';
  }
  addr = g_inet_address_new_from_string (host);
  if (!addr)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--listen '%s': '%s' is not an IP address", listen, host);
  g_free (host);
  *port = (guint16) p;
  return addr;
}

MonitorHttp *
monitor_http_new (const MonitorSettings * s, MonitorHttpRoute route,
    gpointer route_data, GError ** error)
{
  const gchar *listen = s->listen;
  MonitorHttp *h;
  GInetAddress *addr;
  GSocket *sock;
  guint16 port;
  gint fd;

  addr = parse_listen (listen, &port, error);
  if (!addr)
    return NULL;
  sock = listen_socket (addr, port, error);
  if (!sock) {
    g_prefix_error (error, "--listen %s: ", listen);
    g_object_unref (addr);
    return NULL;
  }
  raise_fd_limit ();
  h = g_new0 (MonitorHttp, 1);
  h->settings = s;
  h->route = route;
  h->route_data = route_data;
  h->listen_host = g_inet_address_to_string (addr);
  h->listen_any = g_inet_address_get_is_any (addr);
  h->listen_loopback = g_inet_address_get_is_loopback (addr);
  g_object_unref (addr);
  /* libmicrohttpd closes the descriptor it is given. */
  fd = dup (g_socket_get_fd (sock));
  g_object_unref (sock);
  h->daemon = fd < 0 ? NULL : MHD_start_daemon (MHD_USE_EPOLL |
      MHD_USE_ERROR_LOG, 0, NULL, NULL, access_handler, h,
      MHD_OPTION_EXTERNAL_LOGGER, server_log, h,
      MHD_OPTION_LISTEN_SOCKET, fd,
      MHD_OPTION_CONNECTION_LIMIT, (unsigned int) MAX_CONNECTIONS,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) IDLE_TIMEOUT,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) CONNECTION_MEMORY,
      MHD_OPTION_STRICT_FOR_CLIENT, (int) 1,
      MHD_OPTION_NOTIFY_COMPLETED, request_completed, h, MHD_OPTION_END);
  if (!h->daemon) {
    if (fd >= 0)
      close (fd);
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "--listen %s: the "
        "HTTP server did not start", listen);
    monitor_http_free (h);
    return NULL;
  }
  h->source = g_source_new (&source_funcs, sizeof (HttpSource));
  ((HttpSource *) h->source)->http = h;
  g_source_set_name (h->source, "sharpness-monitor HTTP");
  g_source_add_unix_fd (h->source, MHD_get_daemon_info (h->daemon,
          MHD_DAEMON_INFO_EPOLL_FD)->epoll_fd, G_IO_IN);
  source_arm ((HttpSource *) h->source);
  g_source_attach (h->source, NULL);
  return h;
}

guint
monitor_http_connections (MonitorHttp * h)
{
  const union MHD_DaemonInfo *i = h ? MHD_get_daemon_info (h->daemon,
      MHD_DAEMON_INFO_CURRENT_CONNECTIONS) : NULL;

  return i ? i->num_connections : 0;
}

void
monitor_http_free (MonitorHttp * h)
{
  if (!h)
    return;
  if (h->source) {
    g_source_destroy (h->source);
    g_source_unref (h->source);
  }
  if (h->daemon)
    MHD_stop_daemon (h->daemon);
  g_free (h->listen_host);
  g_free (h);
}
