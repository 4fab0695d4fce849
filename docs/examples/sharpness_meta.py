# Reads the metas of gst-sharpness into plain Python objects:
#
#   from sharpness_meta import read_sharpness_meta, read_compare_meta
#   m = read_sharpness_meta(buffer)     # None: the frame was not scored
#   print(m.metric, m.score, m.blurry, m.tile_scores, m.rois)
#   c = read_compare_meta(buffer)       # None: the frame was not compared
#   print(c.frame, c.psnr_avg, c.ssim_all, c.ms_ssim)
#
# The field names are written here once, as the C sources name them
# (gst/common/sharpness-fields.h, gst/cudacompare/compare-report.c);
# tests/examples/test_meta_field_names.py fails when the two drift.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
from dataclasses import dataclass, field
from typing import Optional

# GstSharpnessMeta (cudasharpness; docs/reference/cudasharpness.md, "Metadata").
SHARPNESS_META = "GstSharpnessMeta"
METRIC = "metric"
SCORE = "score"
BLURRY = "blurry"
CONTENT_STATE = "content-state"  # normal, black, frozen, flat or blurry
BLACK_RATIO = "black-ratio"  # each only when its detection is on
FREEZE_MAFD = "freeze-mafd"
STRUCTURE = "structure"
TILES_COLS = "tiles-cols"  # only with the element's tiles on
TILES_ROWS = "tiles-rows"
TILE_SCORES = "tile-scores"
ROI_IDS = "roi-ids"  # only when regions of interest were scored
ROI_TYPES = "roi-types"
ROI_SCORES = "roi-scores"
SHARPNESS_FIELDS = frozenset({METRIC, SCORE, BLURRY, CONTENT_STATE,
                              BLACK_RATIO, FREEZE_MAFD, STRUCTURE,
                              TILES_COLS, TILES_ROWS, TILE_SCORES, ROI_IDS,
                              ROI_TYPES, ROI_SCORES})

# GstCompareMeta (cudacompare; docs/reference/cudacompare.md, "GstCompareMeta").  Only
# the metrics computed for the frame have fields; the per-plane ones are
# named after the planes: y u v, r g b, or y alone for gray.
COMPARE_META = "GstCompareMeta"
FRAME = "frame"
PSNR = "psnr"  # psnr-y, psnr-u, ...
PSNR_AVG = "psnr-avg"
MSE = "mse"  # mse-y, ...
MSE_AVG = "mse-avg"
SSIM = "ssim"  # ssim-y, ...
SSIM_ALL = "ssim-all"
SSIM_DB = "ssim-db"
MS_SSIM = "ms-ssim"
# metrics=vmaf: the meta of frame n + 1 carries frame n's VMAF (its motion
# needs the next frame), under VMAF_FRAME, with libvmaf's feature names.
VMAF_FRAME = "vmaf-frame"
VMAF = "vmaf"
VMAF_FEATURES = ("integer_adm2", "integer_adm_scale0", "integer_adm_scale1",
                 "integer_adm_scale2", "integer_adm_scale3",
                 "integer_motion2", "integer_motion", "integer_vif_scale0",
                 "integer_vif_scale1", "integer_vif_scale2",
                 "integer_vif_scale3")
PLANE_SETS = ("yuv", "rgb", "y")
PER_PLANE = (PSNR, MSE, SSIM)


def compare_fields(planes="yuv"):
    """Every field a GstCompareMeta has when all metrics were computed on
    frames of @planes (one of PLANE_SETS)."""
    return frozenset({FRAME, PSNR_AVG, MSE_AVG, SSIM_ALL, SSIM_DB, MS_SSIM}
                     | {f"{m}-{p}" for m in PER_PLANE for p in planes})


@dataclass
class Roi:
    id: int  # the GstVideoRegionOfInterestMeta's id
    type: str  # its type name ("face", ...)
    score: float


@dataclass
class SharpnessMeta:
    metric: str  # the metric's nick
    score: float
    blurry: bool
    content_state: Optional[str] = None  # None from an older element
    black_ratio: Optional[float] = None  # None: not measured
    freeze_mafd: Optional[float] = None
    structure: Optional[float] = None
    tiles_cols: int = 0  # 0: no tile map
    tiles_rows: int = 0
    tile_scores: list = field(default_factory=list)  # row-major
    rois: list = field(default_factory=list)  # of Roi


@dataclass
class CompareMeta:
    frame: int  # the distorted frame's index since the element started
    # Per plane, e.g. {"y": 41.2, "u": 44.0, "v": 44.3}; empty and None
    # when the metric was not computed for this frame.
    psnr: dict = field(default_factory=dict)
    psnr_avg: Optional[float] = None
    mse: dict = field(default_factory=dict)
    mse_avg: Optional[float] = None
    ssim: dict = field(default_factory=dict)
    ssim_all: Optional[float] = None
    ssim_db: Optional[float] = None
    ms_ssim: Optional[float] = None
    # The VMAF of the frame before (vmaf_frame), None without metrics=vmaf
    # or on the first frame; its features by libvmaf's names.
    vmaf_frame: Optional[int] = None
    vmaf: Optional[float] = None
    vmaf_features: dict = field(default_factory=dict)


def _value(s, name, default=None):
    return s.get_value(name) if s.has_field(name) else default


def _list(s, name):
    # GST_TYPE_ARRAY fields read as Gst.ValueArray: make them lists.
    return list(s.get_value(name)) if s.has_field(name) else []


def read_sharpness_meta(buffer):
    """The buffer's GstSharpnessMeta as a SharpnessMeta, or None when the
    frame carries none (not scored).  With several cudasharpness of
    different metrics in a row, a buffer has one meta per metric, and
    get_custom_meta returns the first."""
    meta = buffer.get_custom_meta(SHARPNESS_META)
    if meta is None:
        return None
    s = meta.get_structure()
    rois = [Roi(i, t, v) for i, t, v in zip(_list(s, ROI_IDS),
                                            _list(s, ROI_TYPES),
                                            _list(s, ROI_SCORES))]
    return SharpnessMeta(metric=s.get_value(METRIC),
                         score=s.get_value(SCORE),
                         blurry=s.get_value(BLURRY),
                         content_state=_value(s, CONTENT_STATE),
                         black_ratio=_value(s, BLACK_RATIO),
                         freeze_mafd=_value(s, FREEZE_MAFD),
                         structure=_value(s, STRUCTURE),
                         tiles_cols=_value(s, TILES_COLS, 0),
                         tiles_rows=_value(s, TILES_ROWS, 0),
                         tile_scores=_list(s, TILE_SCORES),
                         rois=rois)


def read_compare_meta(buffer):
    """The buffer's GstCompareMeta as a CompareMeta, or None when the
    frame carries none (no reference, or no metric computed)."""
    meta = buffer.get_custom_meta(COMPARE_META)
    if meta is None:
        return None
    s = meta.get_structure()
    per_plane = {m: {} for m in PER_PLANE}
    for i in range(s.n_fields()):
        metric, _, plane = s.nth_field_name(i).partition("-")
        if metric in per_plane and len(plane) == 1:
            per_plane[metric][plane] = s.get_value(s.nth_field_name(i))
    return CompareMeta(frame=s.get_value(FRAME),
                       psnr=per_plane[PSNR], psnr_avg=_value(s, PSNR_AVG),
                       mse=per_plane[MSE], mse_avg=_value(s, MSE_AVG),
                       ssim=per_plane[SSIM], ssim_all=_value(s, SSIM_ALL),
                       ssim_db=_value(s, SSIM_DB),
                       ms_ssim=_value(s, MS_SSIM),
                       vmaf_frame=_value(s, VMAF_FRAME),
                       vmaf=_value(s, VMAF),
                       vmaf_features={f: s.get_value(f)
                                      for f in VMAF_FEATURES
                                      if s.has_field(f)})
