/* sharpness_json_node(): a json-glib tree written as JSON text the way the
 * tools write it, and valid where json-glib 1.6's own generator is not:
 * members in the order added, strings escaped for a page (<, >, &) and
 * made valid UTF-8, numbers %.10g with null for what is not finite (json-glib
 * 1.6 writes 1e21 as 1e+21.0), integers whole.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sharpness-tool-json.h"

int
main (void)
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
  int failures = 0;

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

  if (strcmp (out->str, want) != 0) {
    printf ("FAIL the tree as text\n  got  %s\n  want %s\n", out->str, want);
    failures++;
  } else {
    printf ("ok   the tree as text: %s\n", out->str);
  }
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
  return failures ? 1 : 0;
}
