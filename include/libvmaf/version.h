/* libvmaf 3.x-compatible C API (VQX): the libvmaf API version this library
 * answers (libvmaf installs the same three macros in libvmaf/version.h). */
#ifndef VQX_LIBVMAF_VERSION_H
#define VQX_LIBVMAF_VERSION_H

#define VMAF_API_VERSION_MAJOR 3
#define VMAF_API_VERSION_MINOR 2
#define VMAF_API_VERSION_PATCH 0

#endif /* VQX_LIBVMAF_VERSION_H */
