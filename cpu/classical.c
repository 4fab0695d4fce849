/* PLACEHOLDER (being written by the cpu-classical helper) */
#include "sharpness-cpu-private.h"
#define P(n) SharpnessStatus sharpness_cpu_##n##_sums (SharpnessCpu *c, const SharpnessPlane *p, SharpnessSums *s) { return SHARPNESS_ERROR_UNSUPPORTED; }
P(variance) P(roberts) P(tenengrad) P(laplacian) P(smd) P(smd2) P(maxmin) P(entropy)
