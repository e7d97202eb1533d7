#!/usr/bin/env bash
# Builds a minimal FFmpeg 5.1 (Debian 12's source package) with its libvmaf
# filter against an installed VQX libvmaf (docs/capi.md, "FFmpeg's libvmaf
# filter"), in a cache folder outside the repository.
#   ffmpeg_build.sh LIBVMAF_PREFIX
# LIBVMAF_PREFIX: where `cmake --install ... --component libvmaf` put VQX's
# libvmaf (its lib/pkgconfig/libvmaf.pc is used by FFmpeg's configure).
# Cache: ${VQX_FFMPEG_CACHE:-$HOME/.cache/vqx-ffmpeg}; a build is kept under
# a key made of the source package's version and the configure line, and is
# rebuilt only when one of them changes. libvmaf is linked dynamically and
# found at run time through LD_LIBRARY_PATH, so a new VQX needs no rebuild.
# The last line printed on stdout is the path of the ffmpeg program.
# Exit code 77: the source package could not be fetched (no apt, no network).
set -euo pipefail
prefix=$(realpath "$1")
cache=${VQX_FFMPEG_CACHE:-$HOME/.cache/vqx-ffmpeg}
mkdir -p "$cache"
cache=$(realpath "$cache")
log() { echo "ffmpeg_build: $*" >&2; }
skip() { log "SKIP: $*"; exit 77; }

# One run at a time per cache (two test runs may share it).
if command -v flock >/dev/null; then
  exec 9>"$cache/.lock"
  flock 9
fi

pc=$(find "$prefix" -name libvmaf.pc | head -1)
[[ -n $pc ]] || { log "no libvmaf.pc under $prefix"; exit 1; }

# --- The source package -------------------------------------------------------
# apt runs with a private state (lists, caches) in the cache folder and a
# private source list: the machine's own apt sources (one-line .list files
# and deb822 .sources files) with deb turned into deb-src. No host name is
# written here, and nothing under /etc is changed.
fetch_source() {
  command -v apt-get >/dev/null || skip "apt-get is not installed"
  command -v dpkg-source >/dev/null || skip "dpkg-source is not installed (dpkg-dev; scripts/setup.sh installs it)"
  local apt=$cache/apt
  # The lists of an earlier run stay: without network, they still name the
  # version, and a cached build of it is used.
  rm -rf "$apt/parts" "$apt/sources.list"
  mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache/archives/partial"
  : >"$apt/sources.list"
  local f n=0
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f $f ]] || continue
    sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$apt/sources.list"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f $f ]] || continue
    n=$((n + 1))
    # Stanzas of Types: deb become Types: deb-src (a stanza already listing
    # deb-src keeps it once).
    sed -E -e '/^Types:/{s/\bdeb-src\b//g; s/\bdeb\b/deb-src/; s/[[:space:]]+$//}' \
      "$f" >"$apt/parts/$n-$(basename "$f")"
  done
  if ! grep -qs 'deb-src' "$apt/sources.list" "$apt"/parts/* 2>/dev/null; then
    skip "no apt source to derive a deb-src entry from"
  fi
  aptopts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/parts"
           -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
           -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
           -o "APT::Sandbox::User=$(id -un)" -o "Debug::NoLocking=1")
  # A failing third-party source must not stop the Debian one: apt-get
  # source below is what decides.
  apt-get "${aptopts[@]}" update -qq >"$apt/update.log" 2>&1 || log "apt-get update reported errors (see $apt/update.log)"
}

# Always asks apt for the version (cheap once the lists are there); the
# download happens only for a version not yet in the cache.
fetch_source
version=$(apt-get "${aptopts[@]}" source --only-source --print-uris -qq ffmpeg 2>/dev/null |
          awk '$2 ~ /^ffmpeg_.*\.dsc$/ {print $2; exit}' || true)
version=${version#ffmpeg_}
version=${version%.dsc}
[[ -n $version ]] || skip "apt-get source cannot find Debian's ffmpeg source package (no network or no deb-src)"
[[ $version == 5.1.* ]] || log "note: the source package is ffmpeg $version, not 5.1.x"
src=$cache/src-$version
if [[ ! -f $src/.unpacked ]]; then
  rm -rf "$src" "$cache/dl"
  mkdir -p "$cache/dl"
  log "fetching ffmpeg $version (apt-get source)"
  (cd "$cache/dl" && apt-get "${aptopts[@]}" source --only-source -qq ffmpeg >"$cache/dl/source.log" 2>&1) ||
    skip "apt-get source ffmpeg ($version) failed: $(tail -3 "$cache/dl/source.log")"
  d=$(find "$cache/dl" -maxdepth 1 -mindepth 1 -type d -name 'ffmpeg-*' | head -1)
  [[ -n $d && -x $d/configure ]] || { log "apt-get source left no unpacked ffmpeg tree"; exit 1; }
  mv "$d" "$src"
  rm -rf "$cache/dl"
  touch "$src/.unpacked"
fi

# --- Configure and build ------------------------------------------------------
# The minimal FFmpeg for `ffmpeg -i dist -i ref -lavfi "[0:v][1:v]libvmaf=..."
# -f null -`: the two demuxers and decoders of the corpus files, the filters
# the graph needs (libvmaf; buffer/buffersink, the ends of every graph;
# format/scale/null, which ffmpeg inserts), the null muxer and the encoder
# it takes (wrapped_avframe), the file and pipe protocols. No assembly
# (nasm is not needed, and nothing here is speed-critical in FFmpeg itself).
# shellcheck disable=SC2054 # the commas are configure's lists
configure_line=(
  --disable-everything --disable-autodetect --disable-doc --disable-debug
  --disable-programs --enable-ffmpeg --disable-network --disable-x86asm
  --disable-avdevice --disable-swresample --disable-postproc
  --enable-libvmaf --enable-filter=libvmaf,buffer,buffersink,format,scale,null
  --enable-demuxer=matroska,yuv4mpegpipe --enable-decoder=ffv1,rawvideo
  --enable-muxer=null --enable-encoder=wrapped_avframe --enable-protocol=file,pipe
)
key=$(printf '%s\n' "$version" "${configure_line[@]}" | sha256sum | cut -c1-16)
out=$cache/build-$version-$key
if [[ -x $out/ffmpeg && -f $out/.done ]]; then
  log "cached: ffmpeg $version, configure key $key ($out)"
  echo "$out/ffmpeg"
  exit 0
fi
rm -rf "$out"
mkdir -p "$out"
printf '%s\n' "$version" "${configure_line[@]}" >"$out/configure_line.txt"
log "building ffmpeg $version in $out (configure key $key)"
start=$SECONDS
(
  cd "$out"
  PKG_CONFIG_PATH=$(dirname "$pc") "$src/configure" "${configure_line[@]}" >configure.log 2>&1 ||
    { tail -20 configure.log ffbuild/config.log >&2 || true; exit 1; }
  nice -n 10 make -j"${VQX_FFMPEG_JOBS:-2}" ffmpeg >make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
)
echo "$((SECONDS - start))" >"$out/build_seconds.txt"
touch "$out/.done"
log "built in $((SECONDS - start)) s (configure and make -j${VQX_FFMPEG_JOBS:-2})"
echo "$out/ffmpeg"
