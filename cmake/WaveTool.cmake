#===- WaveTool.cmake - wave_tool() helper ----------------------------------===#
#
# wave_tool(NAME SOURCES...) adds one executable linked against libwave,
# installs it (exported as wavetools::NAME by the CMake package), and records it in WAVE_TOOLS so lit can substitute it.
#
#===------------------------------------------------------------------------===#
set_property(GLOBAL PROPERTY WAVE_TOOLS "")

function(wave_tool name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE wave)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  install(TARGETS ${name} EXPORT wavetoolsTargets
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set_property(GLOBAL APPEND PROPERTY WAVE_TOOLS ${name})
endfunction()
