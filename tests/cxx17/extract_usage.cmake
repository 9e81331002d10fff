# Writes the usage lines of a header's top comment to OUT, so a test compiles exactly them:
# the comment lines indented by three spaces or more ("//   code") after the line starting
# "// Usage", up to the first line that is not a comment.
file(STRINGS ${HEADER} lines)
set(code "")
set(inUsage FALSE)
foreach(line IN LISTS lines)
  if(line MATCHES "^// Usage")
    set(inUsage TRUE)
  elseif(inUsage AND NOT line MATCHES "^//")
    break()
  elseif(inUsage AND line MATCHES "^//   (.*)$")
    string(APPEND code "${CMAKE_MATCH_1}\n")
  endif()
endforeach()
if(code STREQUAL "")
  message(FATAL_ERROR "${HEADER}: no usage lines after \"// Usage\"")
endif()
file(WRITE ${OUT} "${code}")
