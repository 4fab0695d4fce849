#!/usr/bin/env bash
# Runs COMMAND in a private mount namespace where one can be made, so that
# no mount it makes (mmdebstrap's /proc, /sys and /dev inside a root) can
# outlive it, whatever ends it; where none can (a container that forbids
# unshare), runs it as it is.
#
#   usage: dev/with-private-mounts.sh COMMAND [ARG...]
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
if unshare --mount --propagation private true 2>/dev/null; then
  exec unshare --mount --propagation private "$@"
fi
exec "$@"
