/* A frame smaller than BLIINDS-II needs is refused with
 * SHARPNESS_ERROR_TOO_SMALL on the CPU, whose text names the size as the
 * reason (the element prints it), before and after frames that score.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bliinds2-model.h"
#include "sharpness-cpu.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void
check (SharpnessCpu * cpu, int size, SharpnessStatus want)
{
  static const uint8_t pixels[8 * 8] = { 9, 200, 31, 77, 140, 3, 255, 18 };
  const SharpnessPlane plane = {
    .samples = SHARPNESS_SAMPLES_Y8, .data = pixels, .stride = 8,
    .width = size, .height = size, .pixel_stride = 1,
  };
  double score = -1.0;
  SharpnessStatus st = sharpness_cpu_score (cpu, SHARPNESS_METRIC_BLIINDS2,
      &plane, &score);

  printf ("%s %dx%d: %s\n", st == want ? "ok  " : "FAIL", size, size,
      sharpness_status_to_string (st));
  if (st != want)
    failures++;
}

int
main (void)
{
  SharpnessCpu *cpu = sharpness_cpu_new ();
  const char *text = sharpness_status_to_string (SHARPNESS_ERROR_TOO_SMALL);

  if (!cpu) {
    fprintf (stderr, "out of memory\n");
    return 1;
  }
  _Static_assert (SHARPNESS_BLIINDS2_MIN_SIZE == 4, "3x3 is the largest "
      "refused square");
  /* First frame, then after a size that scored (the state is rebuilt),
   * then a size that scores again. */
  check (cpu, 3, SHARPNESS_ERROR_TOO_SMALL);
  check (cpu, 4, SHARPNESS_OK);
  check (cpu, 3, SHARPNESS_ERROR_TOO_SMALL);
  check (cpu, 8, SHARPNESS_OK);

  if (!strstr (text, "too small") ||
      strcmp (text, sharpness_status_to_string (SHARPNESS_ERROR_UNSUPPORTED))
      == 0) {
    fprintf (stderr, "FAIL status text: %s\n", text);
    failures++;
  }
  sharpness_cpu_free (cpu);
  return failures != 0;
}
