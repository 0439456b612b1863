# Cross build for aarch64-linux-gnu (linux-arm64) with Debian's cross compiler
# (gcc-aarch64-linux-gnu) and multiarch target libraries (libcmocka-dev:arm64);
# ci/cross.sh uses it, and ci/dist_cross.sh for the linux-aarch64 artifacts.
# Programs built here (tests, the fbe tool, including the one `fbe gen c` runs at build
# time) run under qemu-user: CMAKE_CROSSCOMPILING_EMULATOR makes ctest and custom
# commands prepend it. The target's libc and loader are the multiarch ones (libc6:ARCH,
# pulled in by libcmocka-dev:ARCH), found by qemu at their usual paths.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)

# Target libraries come from the multiarch directory, programs from the host.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# pkg-config must report the target's .pc files (cmocka), not the host's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
