# `fbe encode` to stdout writes the very bytes it writes to a file (-o), and `fbe decode`
# reads them back from stdin: on Windows the tool puts stdin and stdout in binary mode (no
# LF -> CR LF, no ^Z as the end of input). The value holds the bytes 0x0A, 0x0D and 0x1A.
#   cmake -DFBE=fbe -DEMULATOR="qemu-x|wine|" -DSCHEMAS=dir -DWORK=dir -P cli_stdout_binary.cmake
# (ctest cli_stdout_binary; runs on every target, under its emulator)
separate_arguments(emulator UNIX_COMMAND "${EMULATOR}")
file(MAKE_DIRECTORY "${WORK}")
# id 0x0A0D1A0A: the little-endian bytes 0a 1a 0d 0a
file(WRITE "${WORK}/order.json" "{\"id\":168630794,\"symbol\":\"\\n\\r\\u001a\"}\n")
set(args -I "${SCHEMAS}" -p proto -t Order)
execute_process(COMMAND ${emulator} "${FBE}" encode ${args} -o "${WORK}/file.bin"
  INPUT_FILE "${WORK}/order.json" RESULT_VARIABLE rc_file ERROR_VARIABLE err)
execute_process(COMMAND ${emulator} "${FBE}" encode ${args}
  INPUT_FILE "${WORK}/order.json" OUTPUT_FILE "${WORK}/stdout.bin" RESULT_VARIABLE rc_out ERROR_VARIABLE err2)
if(NOT rc_file EQUAL 0 OR NOT rc_out EQUAL 0)
  message(FATAL_ERROR "cli_stdout_binary: encode failed (${rc_file}, ${rc_out}): ${err}${err2}")
endif()
file(READ "${WORK}/file.bin" want HEX)
file(READ "${WORK}/stdout.bin" got HEX)
if(NOT want MATCHES "0a1a0d0a")
  message(FATAL_ERROR "cli_stdout_binary: the encoded bytes lack 0a 1a 0d 0a: ${want}")
endif()
if(NOT got STREQUAL want)
  message(FATAL_ERROR "cli_stdout_binary: stdout differs from the file:\n  file   ${want}\n  stdout ${got}")
endif()
execute_process(COMMAND ${emulator} "${FBE}" decode ${args}
  INPUT_FILE "${WORK}/stdout.bin" OUTPUT_VARIABLE json RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT json MATCHES "\"id\":168630794")
  message(FATAL_ERROR "cli_stdout_binary: decode from stdin failed (${rc}): ${err}${json}")
endif()
message(STATUS "cli_stdout_binary: ${want} through stdout and stdin")
