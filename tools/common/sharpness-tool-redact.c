/* Secrets out of what the tools show (sharpness-tool-redact.h).
 *
 * The text is scanned once, left to right.  A URI's authority starts after
 * "://" and ends at the first '/', '?', '#' or delimiter; where it holds an
 * '@', what precedes it is user information (but for udp:// and rtp://,
 * where it is a multicast source's address).  A query parameter starts
 * after '?', '&' or ';' and is "name=value"; the value ends at the next
 * '&', ';', '#' or delimiter.  Delimiters are what ends a URI inside a
 * sentence, a quoted string or markup: white space, quotes, '<', '>'.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "sharpness-tool-redact.h"

/* Parameter names that carry credentials, matched anywhere in the name
 * and in any case: "passphrase" (SRT), "token" / "access_token" (RTSP,
 * HLS CDNs), "sig" / "signature" / "X-Amz-Signature" (signed URLs), "key"
 * / "api_key", "password" / "pass", "auth", "secret", "credential". */
static const gchar *const secret_words[] = {
  "passphrase", "token", "sig", "key", "pass", "auth", "secret", "credential",
};

static gboolean
is_delimiter (gchar c)
{
  return c == '\0' || g_ascii_isspace (c) || c == '"' || c == '\'' ||
      c == '<' || c == '>' || c == '`';
}

gboolean
sharpness_redact_is_secret_name (const gchar * name, gsize len)
{
  for (gsize w = 0; w < G_N_ELEMENTS (secret_words); w++) {
    gsize n = strlen (secret_words[w]);

    for (gsize i = 0; i + n <= len; i++)
      if (g_ascii_strncasecmp (name + i, secret_words[w], n) == 0)
        return TRUE;
  }
  return FALSE;
}

/* Whether the scheme that ends at @colon (in @text) is udp or rtp, whose
 * "user information" is a multicast source's address (udpsrc's
 * udp://SOURCE@GROUP:PORT), not a credential. */
static gboolean
userinfo_is_source (const gchar * text, const gchar * colon)
{
  const gchar *s = colon;

  while (s > text && g_ascii_isalnum (s[-1]))
    s--;
  return (colon - s == 3) && (g_ascii_strncasecmp (s, "udp", 3) == 0 ||
      g_ascii_strncasecmp (s, "rtp", 3) == 0);
}

/* The authority at @p (just after "://"): appends it to @out with its user
 * information replaced (unless @keep_userinfo); returns where it ends. */
static const gchar *
redact_authority (GString * out, const gchar * p, gboolean keep_userinfo)
{
  const gchar *end = p, *at = NULL;

  while (!is_delimiter (*end) && *end != '/' && *end != '?' && *end != '#') {
    if (*end == '@')
      at = end;
    end++;
  }
  if (at > p && !keep_userinfo) {
    g_string_append (out, SHARPNESS_REDACTED);
    p = at;
  }
  g_string_append_len (out, p, end - p);
  return end;
}

/* A query parameter at @p (just after '?', '&' or ';'): appended with its
 * value replaced when its name is a secret's; returns where it ends. */
static const gchar *
redact_parameter (GString * out, const gchar * p)
{
  const gchar *eq = p, *end;

  while (!is_delimiter (*eq) && *eq != '=' && *eq != '&' && *eq != ';' &&
      *eq != '#')
    eq++;
  if (*eq != '=') {
    g_string_append_len (out, p, eq - p);
    return eq;
  }
  end = eq + 1;
  while (!is_delimiter (*end) && *end != '&' && *end != ';' && *end != '#')
    end++;
  g_string_append_len (out, p, eq + 1 - p);
  if (end > eq + 1 && sharpness_redact_is_secret_name (p, eq - p))
    g_string_append (out, SHARPNESS_REDACTED);
  else
    g_string_append_len (out, eq + 1, end - (eq + 1));
  return end;
}

gchar *
sharpness_redact (const gchar * text)
{
  GString *out;
  const gchar *p;
  gboolean in_query = FALSE;

  if (!text)
    return NULL;
  out = g_string_sized_new (strlen (text) + 16);
  for (p = text; *p;) {
    if (g_str_has_prefix (p, "://")) {
      g_string_append (out, "://");
      p = redact_authority (out, p + 3, userinfo_is_source (text, p));
      in_query = FALSE;
    } else if (*p == '?' || (in_query && (*p == '&' || *p == ';'))) {
      g_string_append_c (out, *p);
      in_query = TRUE;
      p = redact_parameter (out, p + 1);
    } else {
      if (is_delimiter (*p) || *p == '#')
        in_query = FALSE;
      g_string_append_c (out, *p);
      p++;
    }
  }
  return g_string_free (out, FALSE);
}
