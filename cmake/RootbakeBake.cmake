# rootbake_bake(): bakes glTF assets as part of a CMake build.
#
#   include(RootbakeBake)   # with this folder in CMAKE_MODULE_PATH; find_package(rootbake) includes it
#   rootbake_bake(TARGET baked_characters
#                 INPUTS art/walk.glb art/run.gltf
#                 OUT_DIR ${CMAKE_BINARY_DIR}/baked
#                 [OPTIONS --fail-on no-motion --config art/rootbake.json]
#                 [ROOTBAKE /path/to/rootbake])
#
# Each input becomes OUT_DIR/<name> (in place) and OUT_DIR/<stem>.rootmotion.json.
# rootbake writes a depfile listing every file it read (the .bin and images of a
# .gltf), so the build re-bakes exactly when one of them changes; rootbake.json
# files found beside an input are read too but are not in the depfile: pass
# --config to OPTIONS to make a config a dependency. Works with the Ninja and
# Makefile generators (CMake 3.20 or later).
include_guard(GLOBAL)

function(rootbake_bake)
  cmake_parse_arguments(PARSE_ARGV 0 RB "" "TARGET;OUT_DIR;ROOTBAKE" "INPUTS;OPTIONS")
  if(RB_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "rootbake_bake: unknown arguments: ${RB_UNPARSED_ARGUMENTS}")
  endif()
  foreach(required TARGET INPUTS OUT_DIR)
    if(NOT RB_${required})
      message(FATAL_ERROR "rootbake_bake: ${required} is required")
    endif()
  endforeach()
  if(CMAKE_VERSION VERSION_LESS 3.20)
    message(FATAL_ERROR "rootbake_bake needs CMake 3.20 or later (DEPFILE)")
  endif()

  # The rootbake to run: given, the project's own target, or ROOTBAKE_EXECUTABLE (set by
  # find_package(rootbake) to the prefix's, else found on the PATH).
  set(exe_depends "")
  if(RB_ROOTBAKE)
    set(exe "${RB_ROOTBAKE}")
  elseif(TARGET rootbake)
    set(exe "$<TARGET_FILE:rootbake>")
    set(exe_depends rootbake)
  else()
    find_program(ROOTBAKE_EXECUTABLE rootbake REQUIRED)
    set(exe "${ROOTBAKE_EXECUTABLE}")
  endif()

  get_filename_component(out_dir "${RB_OUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  set(dep_dir "${CMAKE_CURRENT_BINARY_DIR}/rootbake_deps/${RB_TARGET}")
  file(MAKE_DIRECTORY "${out_dir}" "${dep_dir}")
  set(outputs "")
  foreach(input IN LISTS RB_INPUTS)
    get_filename_component(source "${input}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(name "${source}" NAME)
    get_filename_component(stem "${source}" NAME_WLE)
    set(baked "${out_dir}/${name}")
    set(sidecar "${out_dir}/${stem}.rootmotion.json")
    if("${baked}" IN_LIST outputs)
      message(FATAL_ERROR "rootbake_bake: two inputs named ${name} would write ${baked}")
    endif()
    add_custom_command(
      OUTPUT "${baked}" "${sidecar}"
      COMMAND "${exe}" bake "${source}" -o "${baked}" --force --quiet --depfile "${dep_dir}/${name}.d" ${RB_OPTIONS}
      DEPENDS "${source}" ${exe_depends}
      DEPFILE "${dep_dir}/${name}.d"
      COMMENT "rootbake: baking ${name}"
      VERBATIM)
    list(APPEND outputs "${baked}" "${sidecar}")
  endforeach()
  add_custom_target(${RB_TARGET} ALL DEPENDS ${outputs})
endfunction()
