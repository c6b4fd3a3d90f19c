# cmake -DSOURCE_DIR=... -DOUTPUT=... -P ScommSourceRevision.cmake: writes OUTPUT, a header that
# defines SCOMM_SOURCE_REVISION, the git commit SOURCE_DIR is checked out at, "+changes" after it
# when tracked files outside docs/ differ from that commit (docs/ holds the results the tools
# write, so a rerun beside fresh results still names its commit), "unknown" outside git. The
# benchmark tools record it with every result, so that a table can be traced to the code it
# measured. Run at every build; the file is rewritten only when the revision changes, so that
# nothing recompiles otherwise.
execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
                OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                RESULT_VARIABLE failed)
if(failed OR revision STREQUAL "")
  set(revision "unknown")
else()
  execute_process(COMMAND git -C "${SOURCE_DIR}" diff --quiet HEAD -- . ":(exclude)docs"
                  RESULT_VARIABLE changed ERROR_QUIET)
  if(changed)
    string(APPEND revision "+changes")
  endif()
endif()
set(text "#define SCOMM_SOURCE_REVISION \"${revision}\"\n")
set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
