#!/usr/bin/python3
# The photographs of the held-out suite (issue 30,
# docs/validation/detection.md "Held-out photographs"): the photographs of
# Debian packages (wallpapers, GCompris' activities, OpenCV's samples,
# Palapeli's puzzles, Matplotlib's sample data), scikit-image's and SciPy's,
# each one photograph whatever the number of files (resolutions, crops,
# stereo pairs) it comes in, split once by a hash of its canonical name
# into a tuning and a held-out half.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# What is a photograph here:
#   - a raster file (JPEG, PNG, WebP) of the packages (only under FOLDERS
#     where a package names some; inside the Qt resource bundles of
#     GCOMPRIS_BUNDLES for GCompris); SVG, XML and anything PIL cannot open
#     are skipped;
#   - at least MIN_HEIGHT rows (a clip never magnifies a photograph);
#   - by content: at least MIN_COLOURS distinct colours (6 bits a channel)
#     in its 512-wide thumbnail (graphics, gradients and flat renders have
#     few), and camera noise: the median absolute Laplacian of the
#     thumbnail's luma over its textured blocks at least MIN_GRAIN (renders
#     are noiseless) -- see classify();
#   - not in NOT_PHOTOGRAPHS (renders, drawings and paintings that pass
#     those tests, rejected by eye) nor in NOT_SHARP (photographs blurred
#     on purpose: a clip's sharp frames must be sharp).
# Duplicates: the files of one Plasma or Lomiri wallpaper folder are one
# photograph, as are the files of one SAME_SCENE entry (OpenCV's stereo
# pairs and sequences of one scene); any two files whose centre squares
# have perceptual hashes within PHASH_DISTANCE bits are one photograph (the
# same picture in several resolutions or crops).  The largest file stands
# for the group.
#
# The split (never re-drawn): canonical name = '<source>:<stem>' where
# <stem> is the wallpaper folder's name (Plasma, Lomiri) or the largest
# file's name without extension and without a trailing resolution
# ('_3840x2160'), lower-cased (GCompris': '<bundle>-<name>'; a SAME_SCENE
# group's: its first file's); scikit-image's and SciPy's are
# 'skimage:<name>', 'scipy:<name>'.  A
# photograph is held out when the first byte of
# sha256('issue30-split:' + canonical name) is odd, tuning when even.
#
# Usage: photos.py [--list]   (prints the photographs, their half and why
#        others were rejected)

import hashlib
import json
import os
import re
import sys
import warnings

import numpy as np

ROOTS = {
    'gnome-backgrounds': '/usr/share/backgrounds/gnome',
    'mate-backgrounds': '/usr/share/backgrounds/mate',
    'ukui-wallpapers': '/usr/share/backgrounds',
    'plasma-workspace-wallpapers': '/usr/share/wallpapers',
    'lomiri-wallpapers': '/usr/share/wallpapers',
}
# The Debian packages whose files are scanned (dpkg -L), in this order.
PACKAGES = ('gnome-backgrounds', 'mate-backgrounds', 'ukui-wallpapers',
            'plasma-workspace-wallpapers', 'lomiri-wallpapers',
            'lomiri-wallpapers-16.04', 'lomiri-wallpapers-20.04',
            'gcompris-qt-data', 'opencv-doc', 'palapeli-data',
            'python-matplotlib-data')
# A canonical name's <source> where it is not the package name's first
# word.
SOURCE = {'gcompris-qt-data': 'gcompris', 'opencv-doc': 'opencv',
          'palapeli-data': 'palapeli', 'python-matplotlib-data': 'matplotlib'}
# Where a package holds photographs among other pictures, the folders that
# hold them: OpenCV's sample images (its tutorials' figures under html/ are
# figures and results side by side), Palapeli's puzzles (its backgrounds
# are 512-row textures for the table), Matplotlib's sample data.
FOLDERS = {
    'opencv-doc': ('/usr/share/doc/opencv-doc/examples/data/',
                   '/usr/share/doc/opencv-doc/examples/text/'),
    'palapeli-data': ('/usr/share/palapeli/collection/',),
    'python-matplotlib-data': ('/usr/share/matplotlib/mpl-data/sample_data/',),
}
# GCompris keeps each activity's pictures in a Qt resource bundle; these
# bundles hold photographs (animals, monuments, the sea, musicians).  The
# other bundles with pictures of 360 rows or more were looked at on a
# contact sheet (2026-12-07): drawings (lang), paintings (babyshapes),
# planets (solar_system, gravity), hangman's drawing.
GCOMPRIS_BUNDLES = ('clickgame', 'details', 'erase', 'explore_farm_animals',
                    'explore_monuments', 'explore_world_animals',
                    'explore_world_music')
GCOMPRIS_RCC = '/usr/share/gcompris-qt/rcc/'
EXTENSIONS = ('.jpg', '.jpeg', '.png', '.webp')
# Photographs of Python modules (no package folder): loaded by name.
SCIPY = ('face', 'ascent')   # scipy.misc (gone from SciPy 1.12: trixie)
SKIMAGE = ('camera', 'brick', 'grass', 'gravel', 'moon', 'astronaut',
           'coffee', 'rocket', 'immunohistochemistry', 'hubble_deep_field',
           'retina', 'chelsea', 'coins', 'clock', 'page', 'text')
# (those under MIN_HEIGHT rows are left out: chelsea, coins, clock, page,
# text)
MIN_HEIGHT = 360
MIN_COLOURS = 30
MIN_GRAIN = 0.9
# Renders, drawings and patterns that pass the content tests (JPEG noise
# and antialiasing give them colours and grain), rejected by eye from a
# contact sheet of every file (2026-12-07): by canonical name.
NOT_PHOTOGRAPHS = {
    'gnome:adwaita', 'gnome:grid', 'gnome:licorice', 'gnome:pixels',
    'gnome:truchet', 'gnome:wood', 'gnome:symbolic',
    'lomiri:infinite-sea_by_aury88', 'lomiri:fossa_by_jasper_roks',
    'lomiri:painting-colors_by__herobrine7gamer',
    'lomiri:umang_by_abhishek_mudgal', 'lomiri:warty-final-ubuntu',
    'lomiri:lomiri-default-background',
    'mate:elephants', 'mate:gulp', 'mate:flow', 'mate:float-into-mate',
    'mate:greentraditional', 'mate:stripes', 'mate:ubuntu-mate-cold-no-logo',
    'mate:ubuntu-mate-dark-no-logo', 'mate:ubuntu-mate-radioactive-no-logo',
    'mate:ubuntu-mate-warm-no-logo',
    'plasma:altai', 'plasma:autumn', 'plasma:canopee', 'plasma:cascade',
    'plasma:cluster', 'plasma:elarun', 'plasma:flow', 'plasma:flyingkonqui',
    'plasma:honeywave', 'plasma:icecold', 'plasma:kay', 'plasma:kite',
    'plasma:kokkini', 'plasma:opal', 'plasma:pastelhills', 'plasma:patak',
    'plasma:safelanding', 'plasma:shell', 'plasma:volna',
    'ukui:2004default', 'ukui:calla', 'ukui:city', 'ukui:desert',
    'ukui:firstgeneration', 'ukui:fluent-color', 'ukui:focal-ubuntukylin',
    'ukui:goldfish', 'ukui:rhythm', 'ukui:rollpaper', 'ukui:string',
    'ukui:the-mouse',
    # GCompris' details: Van Gogh's paintings beside its monuments.
    'gcompris:details-eglise_dauvers-sur-oise_background',
    'gcompris:details-gogh4_background',
    'gcompris:details-portraitofperetanguy_background',
    'gcompris:details-van_gogh_the_night_cafe_background',
    'gcompris:details-vincentvangogh0012_background',
    'gcompris:details-vincentvangogh0013_background',
    'gcompris:details-vincentvangogh0019_background',
    'gcompris:details-vincentvangoghbridge_background',
    # OpenCV: renders, drawings, a painting, ground truth and masks.
    'opencv:aloegt', 'opencv:blender_suzanne1', 'opencv:blender_suzanne2',
    'opencv:cards', 'opencv:chessboard', 'opencv:detect_blob',
    'opencv:digits', 'opencv:ellipses', 'opencv:ml', 'opencv:opencv-logo',
    'opencv:starry_night', 'opencv:scenetext_segmented_word02_mask',
    'opencv:scenetext_segmented_word03_mask',
}
# Photographs blurred on purpose (OpenCV's deblurring samples).
NOT_SHARP = {'opencv:licenseplate_motion', 'opencv:text_defocus',
             'opencv:text_motion'}
# One scene in several files that are not one picture (stereo pairs,
# optical-flow pairs, a camera calibration's views): file stem -> the
# group's stem, per source.
SAME_SCENE = {'opencv': dict(
    [('aero3', 'aero1'), ('aloer', 'aloel'), ('basketball2', 'basketball1'),
     ('ela_modified', 'ela_original'), ('graf3', 'graf1'),
     ('leuvenb', 'leuvena'), ('right', 'left'),
     ('rubberwhale2', 'rubberwhale1')] +
    [('%s%02d' % (side, k), 'left01') for side in ('left', 'right')
     for k in range(1, 15) if (side, k) != ('left', 1)])}
PHASH_DISTANCE = 10
SPLIT_SALT = 'issue30-split:'
HALVES = ('tuning', 'heldout')
# Bump with anything that changes which photographs there are or how they
# load (part of every held-out clip's cache key).
VERSION = 3


def split_of(canonical):
    """'tuning' or 'heldout': the one rule of the split."""
    d = hashlib.sha256((SPLIT_SALT + canonical).encode()).digest()
    return HALVES[d[0] & 1]


def _source(pkg):
    return SOURCE.get(pkg, pkg.split('-')[0])


def _bundle_files(rcc):
    """'<bundle>#<name>' paths of the raster files in a Qt resource
    bundle."""
    import qt_resources
    return ['%s#%s' % (rcc, n) for n in sorted(qt_resources.files(rcc))
            if n.lower().endswith(EXTENSIONS)]


def _package_files():
    """[(package, path)] of the packages' raster files (dpkg -L); a file
    inside a Qt resource bundle is '<bundle>#<name>'."""
    import subprocess
    out = []
    seen = set()
    for pkg in PACKAGES:
        res = subprocess.run(['dpkg', '-L', pkg], capture_output=True,
                             text=True)
        if res.returncode != 0:
            continue
        for p in res.stdout.splitlines():
            if p in seen or not os.path.isfile(p) or os.path.islink(p):
                continue
            if pkg in FOLDERS and not p.startswith(FOLDERS[pkg]):
                continue
            if pkg == 'gcompris-qt-data':
                b = os.path.basename(p)
                if p.startswith(GCOMPRIS_RCC) and \
                        b[:-len('.rcc')] in GCOMPRIS_BUNDLES and \
                        b.endswith('.rcc'):
                    seen.add(p)
                    out += [(pkg, f) for f in _bundle_files(p)]
                continue
            if p.lower().endswith(EXTENSIONS):
                seen.add(p)
                out.append((pkg, p))
    return out


def _file_size(path):
    """Bytes of @path (of its bundle for '<bundle>#<name>')."""
    return os.path.getsize(path.split('#', 1)[0])


def installed_packages():
    import subprocess
    return [p for p in PACKAGES
            if subprocess.run(['dpkg', '-s', p], capture_output=True
                              ).returncode == 0]


def _read_rgb(path):
    import io
    from PIL import Image
    Image.MAX_IMAGE_PIXELS = None
    src = path
    if '#' in path:
        import qt_resources
        rcc, name = path.split('#', 1)
        src = io.BytesIO(qt_resources.files(rcc, only=name)[name])
    with Image.open(src) as im:
        im.load()
        return im.convert('RGB')


def _thumb(img, width=512):
    from PIL import Image
    w, h = img.size
    return img.resize((width, max(1, round(h * width / w))),
                      Image.LANCZOS, reducing_gap=3.0)


def _luma(rgb):
    a = np.asarray(rgb, dtype=np.float32)
    return 0.299 * a[:, :, 0] + 0.587 * a[:, :, 1] + 0.114 * a[:, :, 2]


def classify(img):
    """(colours, grain): the content tests' measures of a PIL RGB image."""
    t = _thumb(img)
    a = np.asarray(t) >> 2
    codes = (a[:, :, 0].astype(np.int32) << 12) | \
        (a[:, :, 1].astype(np.int32) << 6) | a[:, :, 2]
    colours = len(np.unique(codes))
    y = _luma(t)
    lap = np.abs(4 * y[1:-1, 1:-1] - y[:-2, 1:-1] - y[2:, 1:-1] -
                 y[1:-1, :-2] - y[1:-1, 2:])
    h, w = lap.shape
    b = lap[:h // 8 * 8, :w // 8 * 8].reshape(h // 8, 8, w // 8, 8)
    med = np.median(b, axis=(1, 3))
    # Textured blocks: some Laplacian at all (a flat render's blocks are
    # exactly 0); a photograph's noise and detail sit above MIN_GRAIN.
    tex = med[med > 0.25]
    grain = float(np.median(tex)) if tex.size > 0.05 * med.size else 0.0
    return colours, grain


def _phash(img):
    """64-bit perceptual hash of the centre square (DCT of 32 x 32)."""
    from PIL import Image
    from scipy.fft import dctn
    w, h = img.size
    s = min(w, h)
    box = ((w - s) // 2, (h - s) // 2, (w - s) // 2 + s, (h - s) // 2 + s)
    g = _luma(img.resize((32, 32), Image.LANCZOS, box=box))
    d = dctn(g, norm='ortho')[:8, :8].flatten()
    bits = d > np.median(d[1:])
    return int(''.join('1' if b else '0' for b in bits), 2)


def _stem(pkg, path):
    if '#' in path:             # GCompris: '<bundle>-<name>'
        bundle = os.path.basename(path.split('#', 1)[0])[:-len('.rcc')]
        name = os.path.splitext(os.path.basename(path.split('#', 1)[1]))[0]
        return ('%s-%s' % (bundle, name)).lower()
    if pkg.startswith(('plasma', 'lomiri')):
        parts = path.split('/')
        if 'wallpapers' in parts:
            i = parts.index('wallpapers')
            if len(parts) > i + 2:      # wallpapers/NAME/contents/...
                return parts[i + 1].lower()
    s = os.path.splitext(os.path.basename(path))[0]
    s = re.sub(r'[_-]?\d{3,5}x\d{3,5}$', '', s)
    if pkg.startswith('gnome'):
        s = re.sub(r'-[dl]$', '', s)     # the dark and light variants
    s = s.lower()
    return SAME_SCENE.get(_source(pkg), {}).get(s, s)


class Photo:
    """One photograph: @canonical name, @source package, @path (None for
    scikit-image's), @size (w, h), @half, @files (all its files)."""

    def __init__(self, canonical, source, path, size, files):
        self.canonical, self.source, self.path = canonical, source, path
        self.size, self.files = tuple(size), list(files)
        self.half = split_of(canonical)

    def __repr__(self):
        return 'Photo(%r)' % self.canonical

    def rgb(self):
        """The photograph as a PIL RGB image."""
        if self.path is None:
            from PIL import Image
            a = _module_array(self.canonical)
            if a.ndim == 2:
                a = np.stack([a] * 3, axis=2)
            return Image.fromarray(a[:, :, :3].astype(np.uint8))
        return _read_rgb(self.path)


def _cache_path():
    d = os.environ.get('SHARPNESS_PHOTO_CACHE',
                       os.path.join(os.path.expanduser('~'), '.cache',
                                    'gst-sharpness'))
    return os.path.join(d, 'photos-v%d.json' % VERSION)


def _scan():
    """(photos, rejected): every photograph found; rejected: [(path,
    reason)]."""
    cands, rejected = [], []
    for pkg, path in _package_files():
        canonical = '%s:%s' % (_source(pkg), _stem(pkg, path))
        if canonical in NOT_PHOTOGRAPHS:
            rejected.append((path, 'not a photograph (by eye)'))
            continue
        if canonical in NOT_SHARP:
            rejected.append((path, 'blurred on purpose (by eye)'))
            continue
        try:
            img = _read_rgb(path)
        except Exception as e:  # noqa: BLE001 (any unreadable file)
            rejected.append((path, 'unreadable: %s' % type(e).__name__))
            continue
        w, h = img.size
        if h < MIN_HEIGHT:
            rejected.append((path, 'height %d < %d' % (h, MIN_HEIGHT)))
            continue
        colours, grain = classify(img)
        if colours < MIN_COLOURS:
            rejected.append((path, '%d colours < %d (graphic)' %
                             (colours, MIN_COLOURS)))
            continue
        if grain < MIN_GRAIN:
            rejected.append((path, 'grain %.2f < %.2f (render)' %
                             (grain, MIN_GRAIN)))
            continue
        cands.append({'pkg': pkg, 'path': path, 'size': [w, h],
                      'stem': _stem(pkg, path), 'phash': _phash(img)})
    # Group: same package and stem (a wallpaper folder, a resolution
    # suffix), or perceptual hashes within PHASH_DISTANCE.
    parent = list(range(len(cands)))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(cands)):
        for j in range(i):
            a, b = cands[i], cands[j]
            same = (_source(a['pkg']) == _source(b['pkg']) and
                    a['stem'] == b['stem']) or \
                bin(a['phash'] ^ b['phash']).count('1') <= PHASH_DISTANCE
            if same:
                parent[root(i)] = root(j)
    groups = {}
    for i, c in enumerate(cands):
        groups.setdefault(root(i), []).append(c)
    photos = []
    for g in groups.values():
        g.sort(key=lambda c: (-c['size'][0] * c['size'][1], c['path']))
        best = g[0]
        src = _source(best['pkg'])
        photos.append({'canonical': '%s:%s' % (src, best['stem']),
                       'source': best['pkg'], 'path': best['path'],
                       'size': best['size'],
                       'files': [c['path'] for c in g]})
    return photos, rejected


def _module_array(canonical):
    """The array of a Python module's photograph ('skimage:camera',
    'scipy:face')."""
    source, name = canonical.split(':', 1)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')     # scipy.misc's deprecation
        if source == 'scipy':
            from scipy import misc as data
        else:
            from skimage import data
        return getattr(data, name)()


def _module_photos():
    """scikit-image's photographs, and SciPy's where this SciPy still has
    scipy.misc (Debian 12's 1.10 does, offline)."""
    from PIL import Image  # noqa: F401 (Photo.rgb needs it)
    out = []
    names = ['skimage:%s' % n for n in SKIMAGE]
    try:
        _module_array('scipy:ascent')
        names += ['scipy:%s' % n for n in SCIPY]
    except (ImportError, AttributeError):
        pass
    for n in names:
        a = _module_array(n)
        if a.shape[0] < MIN_HEIGHT:
            continue
        out.append(Photo(n, 'scikit-image' if n.startswith('skimage')
                         else 'scipy', None, (a.shape[1], a.shape[0]), []))
    return out


_PHOTOS = None


def all_photos(rescan=False):
    """Every photograph (sorted by canonical name).  The package scan is
    cached (keyed by the packages' file list and VERSION)."""
    global _PHOTOS
    if _PHOTOS is not None and not rescan:
        return _PHOTOS
    files = _package_files()
    key = hashlib.sha1(repr(
        [(p, f, _file_size(f)) for p, f in files]).encode()).hexdigest()
    cp = _cache_path()
    found = None
    if not rescan and os.path.exists(cp):
        with open(cp) as f:
            c = json.load(f)
        if c.get('key') == key:
            found = c
    if found is None:
        photos, rejected = _scan()
        found = {'key': key, 'photos': photos, 'rejected': rejected}
        os.makedirs(os.path.dirname(cp), exist_ok=True)
        with open(cp + '.part', 'w') as f:
            json.dump(found, f, indent=1)
        os.rename(cp + '.part', cp)
    out = [Photo(p['canonical'], p['source'], p['path'], p['size'],
                 p['files']) for p in found['photos']]
    out += _module_photos()
    # Two sources may give one canonical name: keep the larger.
    byname = {}
    for p in out:
        q = byname.get(p.canonical)
        if q is None or p.size[0] * p.size[1] > q.size[0] * q.size[1]:
            byname[p.canonical] = p
    _PHOTOS = sorted(byname.values(), key=lambda p: p.canonical)
    _PHOTOS_REJECTED[:] = found['rejected']
    return _PHOTOS


_PHOTOS_REJECTED = []


def rejected():
    all_photos()
    return list(_PHOTOS_REJECTED)


def half(name):
    """The photographs of one half."""
    return [p for p in all_photos() if p.half == name]


if __name__ == '__main__':
    ps = all_photos(rescan='--rescan' in sys.argv)
    for p in ps:
        print('%-8s %-48s %-28s %5dx%-5d %d file(s)' % (
            p.half, p.canonical, p.source, p.size[0], p.size[1],
            max(1, len(p.files))))
    if '--list' in sys.argv:
        for path, why in rejected():
            print('rejected %s: %s' % (path, why))
    by = {}
    for p in ps:
        by.setdefault((p.source, p.half), 0)
        by[(p.source, p.half)] += 1
    for k in sorted(by):
        print('%s %s: %d' % (k[0], k[1], by[k]))
    print('photographs: %d (tuning %d, held-out %d)' % (
        len(ps), len(half('tuning')), len(half('heldout'))))
