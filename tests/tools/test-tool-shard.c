/* sharpness_tool_parse_shard(): --shard I/N as both tools read it, decimal
 * digits only with 0 <= I < N, and nothing written for a refused text.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include "sharpness-tool-shard.h"

static int failures;

/* @text accepted as @want_i / @want_n, or refused when @want_n is 0. */
static void
expect (const char *text, guint want_i, guint want_n)
{
  guint i = 12345, n = 67890;
  gboolean ok = sharpness_tool_parse_shard (text, &i, &n);
  gboolean good = want_n ? ok && i == want_i && n == want_n :
      !ok && i == 12345 && n == 67890;

  printf ("%s '%s' -> %s %u/%u\n", good ? "ok  " : "FAIL", text,
      ok ? "accepted" : "refused", i, n);
  failures += !good;
}

int
main (void)
{
  expect ("0/1", 0, 1);
  expect ("2/3", 2, 3);
  expect ("007/10", 7, 10);
  expect ("4294967294/4294967295", 4294967294u, 4294967295u);
  /* I must be below N, N at least 1. */
  expect ("3/3", 0, 0);
  expect ("0/0", 0, 0);
  /* Beyond a guint. */
  expect ("0/4294967296", 0, 0);
  /* Not two decimal numbers around one slash. */
  expect ("", 0, 0);
  expect ("1", 0, 0);
  expect ("1/", 0, 0);
  expect ("/3", 0, 0);
  expect ("1/3/4", 0, 0);
  expect ("1 /3", 0, 0);
  expect (" 1/3", 0, 0);
  expect ("+1/3", 0, 0);
  expect ("-1/3", 0, 0);
  expect ("0x1/3", 0, 0);
  expect ("1/3 ", 0, 0);
  if (failures) {
    printf ("%d failure(s)\n", failures);
    return 1;
  }
  return 0;
}
