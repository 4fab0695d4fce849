#!/usr/bin/env python3
# Writes a root directory as a one-layer OCI image: an image layout
# directory (oci-layout, index.json, blobs/sha256/...) and, with --archive,
# the same files in one tar that also carries Docker's manifest.json, so
# that `podman load`, `skopeo copy oci-archive:...`, `ctr images import`
# and `docker load` (Docker 25 and later reads the OCI index; older ones
# manifest.json) all take it.  No container engine is needed.
#
#   usage: oci-image.py [--tag NAME:TAG] [--user UID:GID] [--workdir DIR]
#                       [--env K=V]... [--label K=V]... [--cmd ARG]...
#                       [--archive FILE] [--check] ROOT OUTDIR
#          oci-image.py --check OUTDIR      (verify a layout: digests,
#                                            sizes, diff_ids)
#
# The layer is ROOT as GNU tar writes it (numeric owners, sorted names,
# extended attributes such as file capabilities kept), gzip-compressed
# with no time stamp, so the same root gives the same layer.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import datetime
import gzip
import hashlib
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time

MEDIA_INDEX = 'application/vnd.oci.image.index.v1+json'
MEDIA_MANIFEST = 'application/vnd.oci.image.manifest.v1+json'
MEDIA_CONFIG = 'application/vnd.oci.image.config.v1+json'
MEDIA_LAYER = 'application/vnd.oci.image.layer.v1.tar+gzip'

ARCH = {'x86_64': 'amd64', 'aarch64': 'arm64'}.get(platform.machine(),
                                                    platform.machine())


class HashWriter:
    """A file-like sink that counts and hashes what goes through it."""

    def __init__(self, out=None):
        self.out = out
        self.sha = hashlib.sha256()
        self.size = 0

    def write(self, data):
        self.sha.update(data)
        self.size += len(data)
        if self.out:
            self.out.write(data)
        return len(data)

    def flush(self):
        if self.out:
            self.out.flush()

    def digest(self):
        return 'sha256:' + self.sha.hexdigest()


def blob_path(layout, digest):
    return os.path.join(layout, 'blobs', *digest.split(':', 1))


def put_json(layout, obj):
    data = json.dumps(obj, indent=2, sort_keys=True).encode() + b'\n'
    digest = 'sha256:' + hashlib.sha256(data).hexdigest()
    with open(blob_path(layout, digest), 'wb') as f:
        f.write(data)
    return digest, len(data)


def write_layer(root, layout):
    """Tars ROOT into a gzip blob; returns (digest, size, diff_id)."""
    tmp = os.path.join(layout, 'blobs', 'sha256', 'layer.tmp')
    epoch = int(os.environ.get('SOURCE_DATE_EPOCH', '0'))
    with open(tmp, 'wb') as raw:
        compressed = HashWriter(raw)
        gz = gzip.GzipFile(fileobj=compressed, mode='wb', mtime=epoch,
                           compresslevel=6)
        uncompressed = HashWriter(gz)
        tar = subprocess.Popen(
            ['tar', '--create', '--file=-', '--directory', root,
             '--numeric-owner', '--sort=name', '--xattrs',
             '--xattrs-include=security.capability', '--acls',
             '--one-file-system', '.'],
            stdout=subprocess.PIPE)
        while True:
            chunk = tar.stdout.read(1 << 20)
            if not chunk:
                break
            uncompressed.write(chunk)
        if tar.wait() != 0:
            raise SystemExit('oci-image.py: tar failed on %s' % root)
        gz.close()
    digest = compressed.digest()
    os.replace(tmp, blob_path(layout, digest))
    return digest, compressed.size, uncompressed.digest()


def build(args):
    layout = args.outdir
    if os.path.exists(layout):
        shutil.rmtree(layout)
    os.makedirs(os.path.join(layout, 'blobs', 'sha256'))
    layer, layer_size, diff_id = write_layer(args.root, layout)

    env = {}
    for kv in args.env:
        k, _, v = kv.partition('=')
        env[k] = v
    labels = dict(kv.partition('=')[::2] for kv in args.label)
    # SOURCE_DATE_EPOCH (reproducible builds) or now.
    created = datetime.datetime.fromtimestamp(
        int(os.environ.get('SOURCE_DATE_EPOCH', time.time())),
        datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')
    config = {
        'created': created,
        'architecture': ARCH,
        'os': 'linux',
        'config': {
            'User': args.user,
            'WorkingDir': args.workdir,
            'Env': ['%s=%s' % kv for kv in env.items()],
            'Cmd': args.cmd or None,
            'Labels': labels,
        },
        'rootfs': {'type': 'layers', 'diff_ids': [diff_id]},
        'history': [{'created': created, 'created_by': 'gst-sharpness dev/container/'
                                   'build-image.sh (mmdebstrap)'}],
    }
    config_digest, config_size = put_json(layout, config)
    manifest = {
        'schemaVersion': 2,
        'mediaType': MEDIA_MANIFEST,
        'config': {'mediaType': MEDIA_CONFIG, 'digest': config_digest,
                   'size': config_size},
        'layers': [{'mediaType': MEDIA_LAYER, 'digest': layer,
                    'size': layer_size}],
    }
    manifest_digest, manifest_size = put_json(layout, manifest)
    index = {
        'schemaVersion': 2,
        'mediaType': MEDIA_INDEX,
        'manifests': [{
            'mediaType': MEDIA_MANIFEST, 'digest': manifest_digest,
            'size': manifest_size,
            'platform': {'architecture': ARCH, 'os': 'linux'},
            'annotations': {
                # containerd and Docker read the full name here, skopeo
                # and podman the tag (the ref.name).
                'io.containerd.image.name': args.tag,
                'org.opencontainers.image.ref.name':
                    args.tag.rsplit(':', 1)[-1],
            },
        }],
    }
    with open(os.path.join(layout, 'index.json'), 'w') as f:
        json.dump(index, f, indent=2, sort_keys=True)
        f.write('\n')
    with open(os.path.join(layout, 'oci-layout'), 'w') as f:
        json.dump({'imageLayoutVersion': '1.0.0'}, f)
        f.write('\n')
    # Docker's own index of the archive, beside the OCI one.
    docker = [{'Config': 'blobs/sha256/' + config_digest.split(':')[1],
               'RepoTags': [args.tag],
               'Layers': ['blobs/sha256/' + layer.split(':')[1]]}]
    with open(os.path.join(layout, 'manifest.json'), 'w') as f:
        json.dump(docker, f)
        f.write('\n')

    print('oci-image.py: %s: layer %s, %.1f MB compressed, %s' % (
        args.tag, layer[:19], layer_size / 1e6, layout))
    if args.archive:
        with tarfile.open(args.archive + '.part', 'w',
                          format=tarfile.PAX_FORMAT) as tar:
            for name in ('oci-layout', 'index.json', 'manifest.json',
                         'blobs'):
                tar.add(os.path.join(layout, name), arcname=name)
        os.replace(args.archive + '.part', args.archive)
        print('oci-image.py: archive %s' % args.archive)


def check(layout):
    """Every blob the index reaches exists with its digest and size, and
    the layer's uncompressed digest is the config's diff_id.  Returns the
    config."""
    def read_blob(desc):
        path = blob_path(layout, desc['digest'])
        h = hashlib.sha256()
        size = 0
        with open(path, 'rb') as f:
            for chunk in iter(lambda: f.read(1 << 20), b''):
                h.update(chunk)
                size += len(chunk)
        if 'sha256:' + h.hexdigest() != desc['digest']:
            raise SystemExit('digest mismatch: %s' % desc['digest'])
        if size != desc['size']:
            raise SystemExit('size mismatch: %s' % desc['digest'])
        return path

    with open(os.path.join(layout, 'oci-layout')) as f:
        if json.load(f).get('imageLayoutVersion') != '1.0.0':
            raise SystemExit('bad oci-layout')
    with open(os.path.join(layout, 'index.json')) as f:
        index = json.load(f)
    (mdesc,) = index['manifests']
    with open(read_blob(mdesc)) as f:
        manifest = json.load(f)
    with open(read_blob(manifest['config'])) as f:
        config = json.load(f)
    diff_ids = []
    for ldesc in manifest['layers']:
        h = hashlib.sha256()
        with gzip.open(read_blob(ldesc), 'rb') as f:
            for chunk in iter(lambda: f.read(1 << 20), b''):
                h.update(chunk)
        diff_ids.append('sha256:' + h.hexdigest())
    if diff_ids != config['rootfs']['diff_ids']:
        raise SystemExit('diff_ids do not match the layers')
    return config


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tag', default='gst-sharpness:latest')
    ap.add_argument('--user', default='')
    ap.add_argument('--workdir', default='/')
    ap.add_argument('--env', action='append', default=[])
    ap.add_argument('--label', action='append', default=[])
    ap.add_argument('--cmd', action='append', default=[])
    ap.add_argument('--archive')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('paths', nargs='+')
    args = ap.parse_args()
    if args.check:
        if len(args.paths) != 1:
            ap.error('--check takes the layout directory only')
        config = check(args.paths[0])
        json.dump(config['config'], sys.stdout, indent=2, sort_keys=True)
        print()
        return
    if len(args.paths) != 2:
        ap.error('ROOT and OUTDIR')
    args.root, args.outdir = args.paths
    build(args)


if __name__ == '__main__':
    main()
