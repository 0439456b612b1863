# Cross build for i686-linux-gnu with Debian's cross compiler (gcc-i686-linux-gnu) and
# multiarch target libraries (libcmocka-dev:i386); ci/cross.sh uses it.
# Programs built here (tests, the fbe tool, including the one `fbe gen c` runs at build
# time) run under qemu-user: CMAKE_CROSSCOMPILING_EMULATOR makes ctest and custom
# commands prepend it. The target's libc and loader are the multiarch ones (libc6:ARCH,
# pulled in by libcmocka-dev:ARCH), found by qemu at their usual paths.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER i686-linux-gnu-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-i386)

# Target libraries come from the multiarch directory, programs from the host.
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/i686-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# pkg-config must report the target's .pc files (cmocka), not the host's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig)
