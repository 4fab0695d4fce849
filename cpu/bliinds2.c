/* PLACEHOLDER (being written by a helper) */
#include "sharpness-cpu-private.h"
SharpnessStatus sharpness_cpu_bliinds2_score (SharpnessCpu *c, const SharpnessPlane *p, double *s) { return SHARPNESS_ERROR_UNSUPPORTED; }
