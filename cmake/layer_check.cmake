# The layer check (docs/architecture.md, "Layers"). `layers` lists "folder:allowed,..." lowest
# first (TIPC_LAYERS); a source of src/<folder>/ may use only its own folder and the allowed
# ones, by any of three means, each of which is a dependency:
#   #include "report/x.h"                       an include
#   namespace tipc::report { struct X; }         a namespace opened there: a forward declaration
#   report::X, tipc::report::X                   a qualified use
# Comments are left out (`//` to the end of the line). Stops with the file, the folder used and
# the line when a source uses any other folder.
#
# Script mode, for the test (tests/cmake/layer_check_test.cpp):
#   cmake -DTIPC_LAYER_ROOT=DIR "-DTIPC_LAYERS=a:;b:a" -P cmake/layer_check.cmake

if(CMAKE_SCRIPT_MODE_FILE)
  cmake_policy(VERSION 3.22)  # the project's policies (IN_LIST, empty list elements), before the functions
endif()

# The folders of `folders` (an alternation) a line uses.
function(tipc_folders_used line folders out)
  string(REGEX REPLACE "//.*" "" code "${line}")
  set(any "(${folders})")
  set(used)
  if(code MATCHES "^#include \"([a-z_]+)/")
    list(APPEND used ${CMAKE_MATCH_1})
  endif()
  string(REGEX MATCHALL "namespace[ \t]+(tipc::)?${any}([^A-Za-z0-9_]|$)" opened "${code}")
  string(REGEX MATCHALL "(^|[^A-Za-z0-9_:])(tipc::)?${any}::" qualified "${code}")
  foreach(match IN LISTS opened qualified)
    string(REGEX MATCH "${any}(::|[^A-Za-z0-9_]|$)" name "${match}")
    list(APPEND used ${CMAKE_MATCH_1})
  endforeach()
  set(${out} ${used} PARENT_SCOPE)
endfunction()

function(tipc_check_layers root layers)
  set(folders)
  foreach(layer IN LISTS layers)
    string(REGEX REPLACE ":.*" "" folder "${layer}")
    list(APPEND folders ${folder})
  endforeach()
  string(JOIN "|" any ${folders})
  foreach(layer IN LISTS layers)
    string(REPLACE ":" ";" parts "${layer}")
    string(REPLACE "," ";" parts "${parts}")
    list(POP_FRONT parts folder)
    set(allowed ${folder} ${parts})
    file(GLOB_RECURSE sources ${root}/src/${folder}/*.cpp ${root}/src/${folder}/*.h)
    foreach(source IN LISTS sources)
      file(STRINGS ${source} lines REGEX "^#include \"|namespace|(${any})::")
      foreach(line IN LISTS lines)
        tipc_folders_used("${line}" "${any}" used)
        foreach(name IN LISTS used)
          if(NOT name IN_LIST allowed)
            message(FATAL_ERROR "${source}: uses ${name}/, which the layer ${folder} may not use "
                                "(allowed: ${allowed}; the layers are TIPC_LAYERS in CMakeLists.txt), in: ${line}")
          endif()
        endforeach()
      endforeach()
    endforeach()
  endforeach()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED TIPC_LAYER_ROOT)
  tipc_check_layers("${TIPC_LAYER_ROOT}" "${TIPC_LAYERS}")
endif()
