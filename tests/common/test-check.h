/* The checks of the plain C tests: CHECK and its integer forms print what
 * failed, with file and line, CHECKF a message of the test's, and
 * test_check every check by name ("ok" or "FAIL"); all count the
 * failures, so that one run lists every failure instead of stopping at
 * the first; main ends with test_check_finish, which gives the exit
 * status.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Header only (a test is one translation unit), GLib.
 */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdio.h>

#include <glib.h>

/* Checks failed so far; a test's own comparisons add to it too. */
static int test_check_failures;

#define CHECK(cond) G_STMT_START {                                      \
  if (!(cond)) {                                                        \
    g_printerr ("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    test_check_failures++;                                              \
  }                                                                     \
} G_STMT_END

/* CHECK that @a equals @b as @type, both printed with @format when not. */
#define CHECK_EQ_TYPED(type, format, a, b) G_STMT_START {               \
  type a_ = (type) (a), b_ = (type) (b);                                \
  if (a_ != b_) {                                                       \
    g_printerr ("%s:%d: %s = %" format ", want %" format "\n",          \
        __FILE__, __LINE__, #a, a_, b_);                                \
    test_check_failures++;                                              \
  }                                                                     \
} G_STMT_END

#define CHECK_EQ_I64(a, b) CHECK_EQ_TYPED (gint64, G_GINT64_FORMAT, a, b)
#define CHECK_EQ_U64(a, b) CHECK_EQ_TYPED (guint64, G_GUINT64_FORMAT, a, b)

/* Checks CHECKF has made, for a test that reports the number. */
static G_GNUC_UNUSED int test_check_count;

/* CHECK with a printf message of its own: "FAIL file:line: cond:
 * message".  Only the first 40 failures are printed: a kernel broken at
 * every size would otherwise bury the first one. */
#define CHECKF(cond, ...) G_STMT_START {                                \
  test_check_count++;                                                   \
  if (!(cond) && ++test_check_failures <= 40) {                         \
    g_printerr ("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);         \
    g_printerr (__VA_ARGS__);                                           \
    g_printerr ("\n");                                                  \
  }                                                                     \
} G_STMT_END

/* A check named @what: "ok   @what" or "FAIL @what" on stdout. */
static inline void
test_check (gboolean ok, const gchar * what)
{
  printf ("%s %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok)
    test_check_failures++;
}

/* The exit status of main: 1 after any failure (their count printed),
 * else 0 and @passed, when given, printed. */
static inline int
test_check_finish (const char *passed)
{
  if (test_check_failures) {
    g_printerr ("%d check(s) failed\n", test_check_failures);
    return 1;
  }
  if (passed)
    g_print ("%s\n", passed);
  return 0;
}

#endif /* TEST_CHECK_H */
