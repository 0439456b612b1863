# Cross build for 64-bit Windows with Debian's mingw-w64 (gcc-mingw-w64-x86-64, the
# win32 thread model; msvcrt, with mingw-w64's C99 printf: CMakeLists.txt defines
# __USE_MINGW_ANSI_STDIO for MinGW); ci/cross.sh uses it.
# Programs built here (tests, the fbe tool, including the one `fbe gen c` runs at build
# time) run under wine: CMAKE_CROSSCOMPILING_EMULATOR makes ctest and custom commands
# prepend it. ci/cross.sh gives wine a prefix of its own (WINEPREFIX under build/) and
# keeps one wineserver alive for the whole build and ctest.
# Debian has no cmocka for mingw: the tests use tests/cmocka_shim (CMakeLists.txt).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_CROSSCOMPILING_EMULATOR wine)

# Target libraries and headers from the mingw sysroot, programs from the host.
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# libgcc and libwinpthread (test_threads) linked in statically: the .exe and .dll
# files need only Windows' own DLLs (and fbe's), wherever they are copied.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc")
# pkg-config must not report the host's .pc files (cmocka).
set(ENV{PKG_CONFIG_LIBDIR} /usr/x86_64-w64-mingw32/lib/pkgconfig)
