#!/usr/bin/python3
# The picture size a JPEG declares, for the tests that check the tools'
# thumbnails (sharpness-scan's report, sharpness-monitor's API): read from
# the frame header, without a decoder.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later


def jpeg_size(data):
    """(width, height) from the first start-of-frame segment of the JPEG
    @data (bytes), or None when there is none: SOF0 to SOF15, less DHT
    (0xc4), JPG (0xc8) and DAC (0xcc), which share the marker range."""
    i = 2
    while i + 9 < len(data) and data[i] == 0xff:
        marker, length = data[i + 1], data[i + 2] << 8 | data[i + 3]
        if 0xc0 <= marker <= 0xcf and marker not in (0xc4, 0xc8, 0xcc):
            return (data[i + 7] << 8 | data[i + 8],
                    data[i + 5] << 8 | data[i + 6])
        i += 2 + length
    return None
