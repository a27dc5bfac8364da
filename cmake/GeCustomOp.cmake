# ge_add_custom_op(<name> SOURCES <files...> [CXX_STANDARD <n>])
#
# CXX_STANDARD (default 20) is the C++ standard the operator sources and the generated API are
# compiled at; Ascend operator projects build their host code at 14.
# Builds a custom operator project for GE:
#   lib<name>.so        the operators (OpDef + infer + tiling + kernel); GE loads it with
#                       `ge run --custom-op-lib lib<name>.so` or GE_CUSTOM_OP_LIB=lib<name>.so
#   lib<name>_aclnn.so  their typed single-op API (aclnn<Op>GetWorkspaceSize / aclnn<Op>),
#                       generated from the OpDefs at build time by ge_opgen; header
#                       aclnn_<name>.h in its include directory
# Works inside GE's own build (target `ge` exists) or standalone with GE_ROOT (source tree) and
# GE_BUILD_DIR (a build of it: GE_BUILD_DIR/src/libge.so).
set(GE_CUSTOM_OP_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})

if(NOT TARGET ge)
  if(NOT GE_ROOT)
    get_filename_component(GE_ROOT ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
  endif()
  if(NOT GE_BUILD_DIR)
    set(GE_BUILD_DIR ${GE_ROOT}/build)
  endif()
  if(NOT EXISTS ${GE_BUILD_DIR}/src/libge.so)
    message(FATAL_ERROR "GeCustomOp: ${GE_BUILD_DIR}/src/libge.so not found; build GE first or set GE_BUILD_DIR")
  endif()
  add_library(ge SHARED IMPORTED)
  set_target_properties(ge PROPERTIES IMPORTED_LOCATION ${GE_BUILD_DIR}/src/libge.so
                                      INTERFACE_INCLUDE_DIRECTORIES ${GE_ROOT}/include)
endif()

function(ge_add_custom_op name)
  cmake_parse_arguments(ARG "" "CXX_STANDARD" "SOURCES" ${ARGN})
  if(NOT ARG_CXX_STANDARD)
    set(ARG_CXX_STANDARD 20)
  endif()
  add_library(${name} SHARED ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ge)
  set_target_properties(${name} PROPERTIES CXX_STANDARD ${ARG_CXX_STANDARD} CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
  if(NOT TARGET ge_opgen)
    add_executable(ge_opgen ${GE_CUSTOM_OP_CMAKE_DIR}/ge_opgen.cc)
    target_link_libraries(ge_opgen PRIVATE ge ${CMAKE_DL_LIBS})
    set_target_properties(ge_opgen PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON)
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}_aclnn)
  add_custom_command(
    OUTPUT ${out}/aclnn_${name}.h ${out}/aclnn_${name}.cc
    COMMAND ${CMAKE_COMMAND} -E make_directory ${out}
    COMMAND ge_opgen $<TARGET_FILE:${name}> ${out} ${name}
    DEPENDS ge_opgen ${name}
    COMMENT "Generating the aclnn API of ${name}")
  add_library(${name}_aclnn SHARED ${out}/aclnn_${name}.cc)
  target_include_directories(${name}_aclnn PUBLIC ${out})
  target_link_libraries(${name}_aclnn PUBLIC ge)
  set_target_properties(${name}_aclnn PROPERTIES CXX_STANDARD ${ARG_CXX_STANDARD} CXX_STANDARD_REQUIRED ON
                                                  CXX_EXTENSIONS OFF)
endfunction()
