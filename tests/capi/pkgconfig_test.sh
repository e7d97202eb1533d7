#!/usr/bin/env bash
# Installs the libvmaf component of a VQX build (VQX_LIBVMAF_COMPAT=ON) into
# a temporary prefix and builds a libvmaf client the way FFmpeg's configure
# does: pkg-config --cflags --libs libvmaf, then #include <libvmaf.h>.
#   pkgconfig_test.sh BUILD_DIR WORK_DIR CC PKG_CONFIG [EXTRA_CFLAGS]
set -euo pipefail
build=$1 work=$2 cc=$3 pkg_config=$4 extra=${5:-}
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" --component libvmaf >"$work/install.log"

pc=$(find "$prefix" -name libvmaf.pc)
[[ -n $pc ]] || { echo "no libvmaf.pc installed under $prefix"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_LIBDIR=$(dirname "$pc")
version=$("$pkg_config" --modversion libvmaf)
[[ $version == 3.2.0 ]] || { echo "libvmaf.pc gives version $version, not 3.2.0"; exit 1; }
"$pkg_config" --exists 'libvmaf >= 2.0.0' || { echo "'libvmaf >= 2.0.0' not found"; exit 1; }
cflags=$("$pkg_config" --cflags libvmaf)
libs=$("$pkg_config" --libs libvmaf)
echo "cflags: $cflags"
echo "libs: $libs"
# Each -I names an installed folder; one is <prefix>/include/libvmaf.
found=0
for flag in $cflags; do
  dir=${flag#-I}
  [[ -d $dir ]] || { echo "Cflags name $dir, which is not there"; exit 1; }
  [[ $(realpath "$dir") == $(realpath "$prefix")/include/libvmaf ]] && found=1
done
[[ $found == 1 ]] || { echo "Cflags lack <prefix>/include/libvmaf"; exit 1; }
ls "$prefix"/include/libvmaf/{libvmaf,model,picture,feature,version}.h >/dev/null
soname=$(find "$prefix" -name 'libvmaf.so.3' | head -1)
[[ -n $soname ]] || { echo "no libvmaf.so.3 installed"; exit 1; }

cat >"$work/client.c" <<'C'
#include <libvmaf.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  VmafContext *vmaf = NULL;
  VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_NONE, .n_threads = 1};
  if (vmaf_init(&vmaf, cfg) != 0) return 1;
  VmafModel *model = NULL;
  VmafModelConfig mcfg = {.name = "vmaf"};
  if (vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1") != 0) return 2;
  if (vmaf_use_features_from_model(vmaf, model) != 0) return 3;
  vmaf_model_destroy(model);
  if (vmaf_close(vmaf) != 0) return 4;
  printf("%s\n", vmaf_version());
  return strcmp(vmaf_version(), "3.2.0") == 0 ? 0 : 5;
}
C
# shellcheck disable=SC2086 # the flags are word lists
"$cc" -std=c11 $extra $cflags "$work/client.c" -o "$work/client" $libs
out=$(LD_LIBRARY_PATH=$(dirname "$soname") "$work/client")
[[ $out == 3.2.0 ]] || { echo "client printed '$out'"; exit 1; }
echo "pkg-config found libvmaf $version; the client built, linked and ran: $out"
