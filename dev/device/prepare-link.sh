#!/bin/bash
# Here (no GPU, 2 cores): compile BUILDDIR's C sources and generated files,
# write the ordered link commands and collect the system libraries the links
# name, so that the GPU machine need only run nvcc and link.
#   dev/device/prepare-link.sh BUILDDIR   -> .devc/<name>.tar.xz,
#       .devc/<name>-link.sh, .devc/sys (the libraries the links name)
set -e
b=$1
name=$(echo "$b" | tr / _)
mkdir -p .devc/sys
ninja -C "$b" build.ninja >/dev/null
targets=$(ninja -C "$b" -t targets all | awk -F': ' '$2=="c_COMPILER" || ($2=="CUSTOM_COMMAND" && $1 !~ /^meson-internal/ && $1 !~ /^(test|benchmark|install|dist|clean|uninstall|scan-build|ctags|TAGS|cscope|clang-format|clang-tidy|reconfigure)$/) {print $1}')
nice ninja -C "$b" $targets >/tmp/prepare-$name.log 2>&1 || { tail -30 /tmp/prepare-$name.log; exit 1; }
# Link commands in ninja's order (static archives before what uses them).
links=$(ninja -C "$b" -t targets all | awk -F': ' '$2=="STATIC_LINKER" || $2=="c_LINKER" || $2=="cpp_LINKER" {print $1}')
declare -A want
for t in $links; do want["$(ninja -C "$b" -t commands -s "$t" | tail -1)"]=1; done
{
  echo "set -e"
  echo "cd '$b'"
  ninja -C "$b" -t commands | while IFS= read -r c; do
    [ -n "${want[$c]:-}" ] && printf '%s\n' "$c"
  done
} > ".devc/$name-link.sh"
echo "$(grep -c . ".devc/$name-link.sh") link lines for $b"
# The libraries the links name by absolute path (the CUDA toolkit is there).
grep -o ' /usr/lib/x86_64-linux-gnu/[^ ]*\.so[^ ]*' "$b/build.ninja" | sort -u |
while read -r f; do
  mkdir -p ".devc/sys$(dirname "$f")"
  cp -L "$f" ".devc/sys$f"
done
tar cJf ".devc/$name.tar.xz" --exclude='*.tar.xz' "$b"
ls -la ".devc/$name.tar.xz"
