# fbe_generate_c(TARGET <target> SCHEMAS <file.fbe>... [INCLUDE <dir>...] [OUTPUT_DIR <dir>])
#
# Generates C code for the schemas with `fbe gen c` (core/GEN_C.md) at build time,
# adds the generated sources to <target> and their directory to its include path.
# The code is regenerated when a schema (or a schema it imports) or the tool changes; CMake
# re-runs itself when a schema changes, in case its packages or imports changed.
# Every package of every schema gives <OUTPUT_DIR>/<package>.h and .c (OUTPUT_DIR
# defaults to ${CMAKE_CURRENT_BINARY_DIR}/fbe_generated/<target>). Link <target> with
# fbe::fbe or fbe::fbe_static.
#
# The tool: FBE_EXECUTABLE (set by the installed package to its bin/fbe; inside the
# libfbe tree to the fbe target), with FBE_EXECUTABLE_DEPENDS naming what the generated
# code depends on (the fbe target, or the installed tool's file).

# The packages a schema file defines and imports (recursively), found on the include
# path the way the loader finds them: the importing file's directory, then INCLUDE.
function(_fbe_schema_packages schema includes out_packages out_files)
  set(packages "")
  set(files "")
  set(queue "${schema}")
  while(queue)
    list(POP_FRONT queue file)
    if(file IN_LIST files)
      continue()
    endif()
    list(APPEND files "${file}")
    # without comments first: a comment line may start with the word "package" or "import"
    file(READ "${file}" text)
    string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" text "${text}")
    string(REGEX REPLACE "//[^\n]*" "" text "${text}")
    string(REGEX MATCHALL "(^|\n)[ \t]*(package|import)[ \t]+[A-Za-z_][A-Za-z0-9_.]*" lines "${text}")
    get_filename_component(dir "${file}" DIRECTORY)
    foreach(line IN LISTS lines)
      string(STRIP "${line}" line)
      if(line MATCHES "^[ \t]*package[ \t]+([A-Za-z_][A-Za-z0-9_.]*)")
        list(APPEND packages "${CMAKE_MATCH_1}")
      elseif(line MATCHES "^[ \t]*import[ \t]+([A-Za-z_][A-Za-z0-9_.]*)")
        set(name "${CMAKE_MATCH_1}")
        set(found "")
        foreach(candidate IN ITEMS "${dir}" ${includes})
          if(NOT found AND EXISTS "${candidate}/${name}.fbe")
            get_filename_component(found "${candidate}/${name}.fbe" ABSOLUTE)
          endif()
        endforeach()
        if(NOT found)
          message(FATAL_ERROR "fbe_generate_c: ${file} imports ${name}, not found in ${dir};${includes}")
        endif()
        list(APPEND queue "${found}")
      endif()
    endforeach()
  endwhile()
  list(REMOVE_DUPLICATES packages)
  set(${out_packages} "${packages}" PARENT_SCOPE)
  set(${out_files} "${files}" PARENT_SCOPE)
endfunction()

function(fbe_generate_c)
  cmake_parse_arguments(ARG "" "TARGET;OUTPUT_DIR" "SCHEMAS;INCLUDE" ${ARGN})
  if(NOT ARG_TARGET OR NOT ARG_SCHEMAS)
    message(FATAL_ERROR "fbe_generate_c(TARGET <target> SCHEMAS <file.fbe>... [INCLUDE <dir>...] [OUTPUT_DIR <dir>])")
  endif()
  if(NOT FBE_EXECUTABLE)
    message(FATAL_ERROR "fbe_generate_c: FBE_EXECUTABLE is not set (find_package(fbe) sets it)")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/fbe_generated/${ARG_TARGET}")
  endif()
  set(includes "")
  set(include_args "")
  foreach(dir IN LISTS ARG_INCLUDE)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND includes "${dir}")
    list(APPEND include_args -I "${dir}")
  endforeach()

  set(packages "")
  set(inputs "")
  set(commands "")
  foreach(schema IN LISTS ARG_SCHEMAS)
    get_filename_component(schema "${schema}" ABSOLUTE)
    _fbe_schema_packages("${schema}" "${includes}" schema_packages schema_files)
    list(APPEND packages ${schema_packages})
    list(APPEND inputs ${schema_files})
    list(APPEND commands COMMAND "${FBE_EXECUTABLE}" gen c ${include_args} "${schema}" -o "${ARG_OUTPUT_DIR}")
  endforeach()
  list(REMOVE_DUPLICATES packages)
  list(REMOVE_DUPLICATES inputs)
  set(outputs "")
  set(sources "")
  foreach(package IN LISTS packages)
    string(REPLACE "." "_" name "${package}")
    list(APPEND outputs "${ARG_OUTPUT_DIR}/${name}.h" "${ARG_OUTPUT_DIR}/${name}.c")
    list(APPEND sources "${ARG_OUTPUT_DIR}/${name}.c")
  endforeach()

  # One command for all schemas: packages shared by several schemas are written once.
  add_custom_command(OUTPUT ${outputs}
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${ARG_OUTPUT_DIR}"
    ${commands}
    DEPENDS ${inputs} ${FBE_EXECUTABLE_DEPENDS}
    COMMENT "fbe gen c: ${packages}"
    VERBATIM)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${inputs})
  # The target's own sources include the generated headers: generate before compiling any
  # of them (a custom command's outputs alone only order the generated sources).
  set(step ${ARG_TARGET}_fbe_generate)
  set(n 1)
  while(TARGET ${step}) # a second fbe_generate_c() for the same target
    math(EXPR n "${n} + 1")
    set(step ${ARG_TARGET}_fbe_generate${n})
  endwhile()
  add_custom_target(${step} DEPENDS ${outputs})
  add_dependencies(${ARG_TARGET} ${step})
  target_sources(${ARG_TARGET} PRIVATE ${sources})
  target_include_directories(${ARG_TARGET} PUBLIC "${ARG_OUTPUT_DIR}")
endfunction()
