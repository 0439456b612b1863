# fbe_core_sources(CORE_DIR SOURCES_VAR HEADERS_VAR): the core's C sources as
# core/sources.txt lists them (the one list every build reads), and its headers (for
# the DEPENDS of generated wrappers). CORE_DIR: a core/ directory or a copy of one.
function(fbe_core_sources core_dir sources_var headers_var)
  file(STRINGS "${core_dir}/sources.txt" lines REGEX "^[a-z]")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${core_dir}/sources.txt")
  set(sources "")
  foreach(line IN LISTS lines)
    list(APPEND sources "${core_dir}/src/${line}")
  endforeach()
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS "${core_dir}/include/*.h" "${core_dir}/src/*.h")
  set(${sources_var} "${sources}" PARENT_SCOPE)
  set(${headers_var} "${headers}" PARENT_SCOPE)
endfunction()

# fbe_binding_module(TARGET CORE_DIR SKIN_SOURCES [SKIN_WARNINGS...]): what every
# binding's extension module needs the same way - the core compiled in (FBE_STATIC: no
# libfbe to find at run time), only the module's own entry points exported, libm, and
# the warnings: -Wall -Wextra (plus SKIN_WARNINGS) on the hand-written skin, and with
# FBE_WERROR (CI) -Werror on the skin and the core. The SWIG output is not ours to fix.
function(fbe_binding_module target core_dir skin_sources)
  fbe_core_sources("${core_dir}" core_sources core_headers)
  target_include_directories(${target} PRIVATE "${core_dir}/include" "${core_dir}/src")
  target_compile_definitions(${target} PRIVATE FBE_STATIC)
  set_target_properties(${target} PROPERTIES C_VISIBILITY_PRESET hidden)
  if(NOT WIN32)
    target_link_libraries(${target} PRIVATE m)
  endif()
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -O3)
    set(skin_warnings -Wall -Wextra ${ARGN})
    if(FBE_WERROR)
      list(APPEND skin_warnings -Werror)
      set_source_files_properties(${core_sources} PROPERTIES COMPILE_OPTIONS "-Werror")
    endif()
    set_source_files_properties(${skin_sources} PROPERTIES COMPILE_OPTIONS "${skin_warnings}")
  endif()
endfunction()
