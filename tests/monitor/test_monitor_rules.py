#!/usr/bin/python3
# The shipped Prometheus files (tools/monitor/deploy/): promtool checks
# the alerting rules and runs their unit tests (promtool test rules), and
# checks both scrape configurations; the Grafana dashboard is valid JSON
# whose queries name only metrics the monitor exports.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

import json  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402

import monitor_common as mc  # noqa: E402

DEPLOY = os.path.join(mc.SOURCE, 'tools', 'monitor', 'deploy')
METRICS_C = os.path.join(mc.SOURCE, 'tools', 'monitor', 'monitor-metrics.c')
WEBHOOK_C = os.path.join(mc.SOURCE, 'tools', 'monitor', 'monitor-webhook.c')


def promtool(*args):
    r = subprocess.run(['promtool'] + list(args), cwd=DEPLOY,
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


def main():
    if not shutil.which('promtool'):
        scaffold.skip('promtool missing (Debian package prometheus)')
    fx = mc.Failures()
    rc, out = promtool('check', 'rules', 'sharpness-rules.yml')
    fx.check(rc == 0, 'promtool check rules: %s' % out.strip())
    rc, out = promtool('test', 'rules', 'sharpness-rules.test.yml')
    fx.check(rc == 0, 'promtool test rules: %s' % out.strip())
    for cfg in ('prometheus-static.yml', 'prometheus-file-sd.yml'):
        rc, out = promtool('check', 'config', '--syntax-only', cfg)
        fx.check(rc == 0, 'promtool check config %s: %s' % (cfg,
                                                            out.strip()))
    exported = set()
    for src in (METRICS_C, WEBHOOK_C):
        with open(src) as f:
            exported |= set(re.findall(r'"(sharpness_[a-z_]+)', f.read()))
    with open(os.path.join(DEPLOY, 'grafana-dashboard.json')) as f:
        dash = json.load(f)
    used = set()
    for panel in dash['panels']:
        for t in panel.get('targets', []):
            used |= set(re.findall(r'sharpness_[a-z_]+', t['expr']))
    base = {re.sub(r'_(bucket|sum|count)$', '', u) for u in used}
    fx.check(used and base <= exported | {u for u in used if u in exported},
             'the dashboard queries exported metrics only (%s)' % sorted(
                 base - exported))
    fx.finish()


if __name__ == '__main__':
    main()
