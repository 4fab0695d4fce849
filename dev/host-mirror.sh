#!/usr/bin/env bash
# Prints the host's Debian mirror: the first deb.debian.org-style
# ".../debian" URI in the apt sources (deb822 "URIs:" or one-line "deb"
# entries), without its trailing slash; http://deb.debian.org/debian when
# there is none.  The trixie root and the container image are made from
# the mirror the host already uses.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -uo pipefail
mirror=$(
  for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list \
           /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -n -e 's/^URIs:[[:space:]]*//p' \
      -e 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\).*/\2/p' "$f"
  done | tr ' ' '\n' | grep -E '^https?://.*/debian/?$' | head -n1)
mirror=${mirror:-http://deb.debian.org/debian}
echo "${mirror%/}"
