#!/bin/bash
# On the GPU machine: nvcc and link the build dirs prepared here by
# prepare-link.sh (their C objects come in .devc), all in parallel.
#   dev/device/device-build.sh OUTDIR BUILDDIR...   (ninja: .devtools/ninja,
#       a copy of this machine's /usr/bin/ninja, so that its logs agree)
out=$1; shift
[ -e /usr/bin/python3.11 ] || ln -s python3 /usr/bin/python3.11
[ -f .devc/sys.tar.xz ] && tar xJf .devc/sys.tar.xz -C .devc
(cd .devc/sys && find . -type f) | while read -r f; do
  f=${f#./}
  [ -e "/$f" ] || { mkdir -p "$(dirname "/$f")"; cp ".devc/sys/$f" "/$f"; }
done
for b in "$@"; do
  (
    name=$(echo "$b" | tr / _)
    tar xJf ".devc/$name.tar.xz" && touch "$b/build.ninja" &&
    T=$(.devtools/ninja -C "$b" -t targets all | grep '\.o: CUSTOM_COMMAND_DEP' | cut -d: -f1) &&
    .devtools/ninja -C "$b" -j16 $T >"$out/nvcc-$name.log" 2>&1 &&
    bash ".devc/$name-link.sh" >"$out/link-$name.log" 2>&1
    echo "$b: built, exit $? at $(date +%T)"
  ) &
done
wait
