/* PLACEHOLDER (being written by the cuda-perceptual helper) */
#include "sharpness-cuda-private.h"
SharpnessStatus sharpness_cuda_lpc_si_score (SharpnessCuda *, const SharpnessPlane *, double *) { return SHARPNESS_ERROR_UNSUPPORTED; }
