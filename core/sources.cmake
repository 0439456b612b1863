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
