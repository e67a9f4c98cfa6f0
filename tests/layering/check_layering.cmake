# Builds the layering probes (README.md beside this file) in BUILD_DIR:
# every probe in ALLOWED must compile; every probe in FORBIDDEN (entries
# "probe:header", comma-separated) must fail because its header is not found
# on the include roots of the library it is compiled against.
#   cmake -DBUILD_DIR=... -DALLOWED=a,b -DFORBIDDEN=c:x/y.h,d:z.h -P check_layering.cmake
string(REPLACE "," ";" allowed "${ALLOWED}")
string(REPLACE "," ";" forbidden "${FORBIDDEN}")
function(build_probe probe result output)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target layering_probe_${probe}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(${result} ${rc} PARENT_SCOPE)
  set(${output} "${out}" PARENT_SCOPE)
endfunction()
foreach(probe ${allowed})
  build_probe(${probe} rc out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${probe}: an allowed include does not compile, so the probes prove nothing:\n${out}")
  endif()
  message(STATUS "${probe}: compiles, as it must")
endforeach()
foreach(entry ${forbidden})
  string(REPLACE ":" ";" parts ${entry})
  list(GET parts 0 probe)
  list(GET parts 1 header)
  build_probe(${probe} rc out)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${probe}: including ${header} compiled: the build does not enforce this layer")
  endif()
  string(FIND "${out}" "${header}: No such file or directory" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${probe}: failed, but not because ${header} was not found:\n${out}")
  endif()
  message(STATUS "${probe}: ${header} not found, as it must not be")
endforeach()
