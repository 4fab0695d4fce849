/* sharpness-tool-json: a json-glib tree written as JSON text the way the
 * tools write it, and valid where json-glib 1.6's own generator is not:
 * members in the order added, strings escaped for a page (<, >, &) and
 * made valid UTF-8, null for what is not finite (json-glib 1.6 writes 1e21
 * as 1e+21.0), integers whole; numbers that read back as the double the
 * tree holds, with no noise digits; a measurement rounded to 10 digits as
 * %.10g prints it; nanoseconds as seconds to the nanosecond, against the
 * decimal made from the integer.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sharpness-tool-json.h"

static int failures;

static void
check (gboolean ok, const gchar * what, const gchar * got, const gchar * want)
{
  if (ok) {
    printf ("ok   %s\n", what);
  } else {
    printf ("FAIL %s\n  got  %s\n  want %s\n", what, got, want);
    failures++;
  }
}

static void
tree_as_text (void)
{
  const gchar *want = "{\"z\":1,\"a\":\"\\u003cimg\\u003e \\u0026 "
      "\\\"q\\\" \\ufffd\\u0001 \xc3\xa9\",\"n\":[0.1,1,1e+21,null,null,"
      "-2.5e-07],\"big\":9007199254740993,\"t\":true,\"f\":false,"
      "\"nil\":null,\"o\":{}}";
  JsonBuilder *b = json_builder_new ();
  GString *out = g_string_new (NULL);
  JsonNode *root;
  JsonParser *p = json_parser_new ();
  GError *error = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "z");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "a");
  json_builder_add_string_value (b, "<img> & \"q\" \xff\x01 \xc3\xa9");
  json_builder_set_member_name (b, "n");
  json_builder_begin_array (b);
  json_builder_add_double_value (b, 0.1);
  json_builder_add_double_value (b, 1.0);
  json_builder_add_double_value (b, 1e21);
  json_builder_add_double_value (b, NAN);
  json_builder_add_double_value (b, INFINITY);
  json_builder_add_double_value (b, -2.5e-7);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "big");
  json_builder_add_int_value (b, 9007199254740993);
  json_builder_set_member_name (b, "t");
  json_builder_add_boolean_value (b, TRUE);
  json_builder_set_member_name (b, "f");
  json_builder_add_boolean_value (b, FALSE);
  json_builder_set_member_name (b, "nil");
  json_builder_add_null_value (b);
  json_builder_set_member_name (b, "o");
  json_builder_begin_object (b);
  json_builder_end_object (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  sharpness_json_node (out, root);

  check (strcmp (out->str, want) == 0, "the tree as text", out->str, want);
  /* And a JSON reader takes it back. */
  if (!json_parser_load_from_data (p, out->str, out->len, &error)) {
    printf ("FAIL json-glib cannot read it back: %s\n", error->message);
    g_clear_error (&error);
    failures++;
  } else {
    printf ("ok   json-glib reads it back\n");
  }
  json_node_unref (root);
  g_object_unref (b);
  g_object_unref (p);
  g_string_free (out, TRUE);
}

/* Every finite double, from random bit patterns and as scores come (in
 * [0, 1)), reads back with every bit: through g_ascii_strtod and through
 * json-glib's parser, which is what --merge reads with. */
static void
numbers_read_back (void)
{
  GRand *r = g_rand_new_with_seed (31);
  GString *out = g_string_new ("[");
  JsonParser *p = json_parser_new ();
  GArray *want = g_array_new (FALSE, FALSE, sizeof (gdouble));
  guint bad_text = 0, bad_parser = 0, longest = 0;
  gchar *first_bad = NULL;

  for (guint i = 0; i < 200000; i++) {
    guint64 bits = ((guint64) g_rand_int (r) << 32) | g_rand_int (r);
    gdouble v;
    gsize at = out->len;

    if (i % 2) {
      memcpy (&v, &bits, sizeof v);
      if (!isfinite (v))
        continue;
    } else {
      v = g_rand_double (r);
    }
    if (want->len)
      g_string_append_c (out, ',');
    at = out->len;
    sharpness_json_double (out, v);
    longest = MAX (longest, out->len - at);
    {
      gdouble back = g_ascii_strtod (out->str + at, NULL);
      if (memcmp (&back, &v, sizeof v) != 0) {
        if (!first_bad)
          first_bad = g_strndup (out->str + at, out->len - at);
        bad_text++;
      }
    }
    g_array_append_val (want, v);
  }
  g_string_append_c (out, ']');
  check (bad_text == 0, "200,000 doubles read back with every bit",
      first_bad, "none different");
  check (longest <= 24, "no number longer than %.17g writes", "longer",
      "<= 24 characters");
  if (json_parser_load_from_data (p, out->str, out->len, NULL)) {
    JsonArray *a = json_node_get_array (json_parser_get_root (p));
    for (guint i = 0; i < want->len; i++) {
      gdouble back = json_array_get_double_element (a, i);
      bad_parser += memcmp (&back, &g_array_index (want, gdouble, i),
          sizeof back) != 0;
    }
  } else {
    bad_parser = want->len;
  }
  {
    gchar *got = g_strdup_printf ("%u of %u different", bad_parser,
        want->len);
    check (bad_parser == 0, "json-glib's parser reads them back too", got,
        "none different");
    g_free (got);
  }
  g_free (first_bad);
  g_array_unref (want);
  g_object_unref (p);
  g_string_free (out, TRUE);
  g_rand_free (r);
}

/* A measurement added with sharpness_json_add_number comes out as %.10g
 * printed it, at every magnitude (exponents and all). */
static void
ten_digits_as_before (void)
{
  GRand *r = g_rand_new_with_seed (10);
  guint bad = 0;
  gchar *first_bad = NULL;

  for (guint i = 0; i < 100000; i++) {
    gdouble x = g_rand_double_range (r, -1, 1) * pow (10, g_rand_int_range
        (r, -12, 25));
    gchar want[G_ASCII_DTOSTR_BUF_SIZE];
    JsonBuilder *b = json_builder_new ();
    JsonNode *node;
    GString *out = g_string_new (NULL);

    g_ascii_formatd (want, sizeof want, "%.10g", x);
    json_builder_begin_array (b);
    sharpness_json_add_number (b, NULL, x);
    json_builder_end_array (b);
    node = json_builder_get_root (b);
    sharpness_json_node (out, node);
    g_string_erase (out, 0, 1);
    g_string_truncate (out, out->len - 1);
    if (strcmp (out->str, want) != 0) {
      if (!first_bad)
        first_bad = g_strdup_printf ("%s for %s", out->str, want);
      bad++;
    }
    json_node_unref (node);
    g_object_unref (b);
    g_string_free (out, TRUE);
  }
  check (bad == 0, "100,000 measurements as %.10g printed them", first_bad,
      "none different");
  g_free (first_bad);
  g_rand_free (r);
}

/* The decimal of @ns / 10^9 from the integer: every digit, no more. */
static gchar *
decimal_seconds (gint64 ns)
{
  guint64 a = ns < 0 ? -(guint64) ns : (guint64) ns;
  gchar *s = g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%09u", ns < 0 ? "-" :
      "", a / 1000000000, (guint) (a % 1000000000));
  gsize n = strlen (s);

  while (s[n - 1] == '0')
    s[--n] = 0;
  if (s[n - 1] == '.')
    s[--n] = 0;
  return s;
}

static void
seconds_text (GString * out, gint64 ns)
{
  JsonBuilder *b = json_builder_new ();
  JsonNode *node;

  json_builder_begin_object (b);
  sharpness_json_add_seconds (b, "t", ns);
  json_builder_end_object (b);
  node = json_builder_get_root (b);
  g_string_truncate (out, 0);
  sharpness_json_members (out, node, SHARPNESS_JSON_COMPACT);
  g_string_erase (out, 0, 4);   /* "t": */
  json_node_unref (node);
  g_object_unref (b);
}

/* Nanoseconds as seconds: the integer's decimal, for times from 100 us
 * (below that %g writes 5e-05) to 10^6 s, either sign, frame times at
 * 30000/1001 included. */
static void
seconds_to_the_nanosecond (void)
{
  GRand *r = g_rand_new_with_seed (9);
  GString *out = g_string_new (NULL);
  guint bad = 0;
  gchar *first_bad = NULL;

  for (guint i = 0; i < 300000; i++) {
    gint64 ns;
    gchar *want;

    if (i < 100000)             /* frame i at 30000/1001, rounded */
      ns = ((gint64) i * 1001000000000 + 15000) / 30000;
    else if (i < 100010)        /* the ends of the range */
      ns = i % 2 ? 999999999999999 : -999999999999999;
    else
      do
        ns = (gint64) (g_rand_double_range (r, -1, 1) * 1e15);
      while (ns > -100000 && ns < 100000);
    if (i < 100000 && ns && ns < 100000)
      continue;
    want = decimal_seconds (ns);
    seconds_text (out, ns);
    if (strcmp (out->str, want) != 0) {
      if (!first_bad)
        first_bad = g_strdup_printf ("%s for %s", out->str, want);
      bad++;
    }
    g_free (want);
  }
  check (bad == 0, "300,000 times to the nanosecond, as the integer's "
      "decimal", first_bad, "none different");
  g_string_free (out, TRUE);
  g_free (first_bad);
  g_rand_free (r);
}

/* The scan's style, and an object written without its braces (the scan
 * streams its frames after the members). */
static void
spaced_and_members (void)
{
  static const gfloat tiles[] = { 0.1f, 0.5f };
  JsonBuilder *b = json_builder_new ();
  GString *out = g_string_new (NULL);
  JsonNode *node;

  json_builder_begin_object (b);
  sharpness_json_begin_array (b, "a");
  sharpness_json_add_int (b, NULL, 1);
  sharpness_json_add_number (b, NULL, 0.12345678901234);
  sharpness_json_add_exact (b, NULL, 0.12345678901234);
  json_builder_end_array (b);
  sharpness_json_begin_object (b, "b");
  sharpness_json_add_string (b, "s", NULL);
  sharpness_json_add_number (b, "nan", NAN);
  sharpness_json_add_exact (b, "inf", -INFINITY);
  sharpness_json_add_bool (b, "t", TRUE);
  sharpness_json_add_null (b, "n");
  json_builder_end_object (b);
  sharpness_json_add_tiles (b, "tiles", 2, 1, tiles);
  json_builder_end_object (b);
  node = json_builder_get_root (b);

  sharpness_json_write_builder (out, b, SHARPNESS_JSON_SPACED);
  check (g_str_equal (out->str, "{\"a\": [1, 0.123456789, 0.12345678901234],"
          " \"b\": {\"s\": null, \"nan\": null, \"inf\": null, \"t\": "
          "true, \"n\": null}, \"tiles\": {\"cols\": 2, \"rows\": 1, "
          "\"scores\": [0.1000000015, 0.5]}}"),
      "spaced: \", \" and \": \"; a tile map's floats to 10 digits", out->str,
      "{\"a\": [1, 0.123456789, 0.12345678901234], ...}");
  g_string_truncate (out, 0);
  sharpness_json_members (out, node, SHARPNESS_JSON_COMPACT);
  check (g_str_equal (out->str, "\"a\":[1,0.123456789,0.12345678901234],"
          "\"b\":{\"s\":null,\"nan\":null,\"inf\":null,\"t\":true,"
          "\"n\":null},\"tiles\":{\"cols\":2,\"rows\":1,\"scores\":"
          "[0.1000000015,0.5]}"), "the members without braces", out->str,
      "\"a\":[...],\"b\":{...}");
  json_node_unref (node);
  g_object_unref (b);
  g_string_free (out, TRUE);
}

int
main (void)
{
  tree_as_text ();
  numbers_read_back ();
  ten_digits_as_before ();
  seconds_to_the_nanosecond ();
  spaced_and_members ();
  return failures ? 1 : 0;
}
