# ctest install.lessons: `cmake --install` into a fresh prefix, then the installed ringviz,
# run from an unrelated folder, lists the shipped lessons of <prefix>/share/ringviz/lessons,
# finds one by name there and, for a name that does not exist, names that folder and the
# lessons it holds.
# Arguments: -DBUILD_DIR=... -DPREFIX=... -DWITH_GUI=ON|OFF
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE installed OUTPUT_QUIET)
if(NOT installed EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${installed}")
endif()
foreach(file bin/ringviz share/ringviz/lessons/05-allreduce-traffic.json share/ringviz/lessons/07-straggler.json
             share/ringviz/captures/straggler-4gpus.json share/ringviz/captures/synthetic-straggler-4gpus.json
             share/ringviz/lessons/11-your-ddp-job.json share/ringviz/jobs/ddp-gpt-gloo-4.json)
  if(NOT EXISTS "${PREFIX}/${file}")
    message(FATAL_ERROR "cmake --install did not install ${file}")
  endif()
endforeach()
set(elsewhere "${PREFIX}/elsewhere")
file(MAKE_DIRECTORY "${elsewhere}")
set(environment "${CMAKE_COMMAND}" -E env --unset=DISPLAY --unset=RINGVIZ_LESSONS RINGVIZ_SETTINGS=off)
execute_process(COMMAND ${environment} "${PREFIX}/bin/ringviz" lessons
                WORKING_DIRECTORY "${elsewhere}" RESULT_VARIABLE listed OUTPUT_VARIABLE list ERROR_VARIABLE said)
string(FIND "${list}" "\n07-straggler " straggler_listed)
if(NOT listed EQUAL 0 OR straggler_listed EQUAL -1)
  message(FATAL_ERROR "the installed ringviz did not list the shipped lessons (exit ${listed}): ${list}${said}")
endif()
if(NOT WITH_GUI)
  return()  # record needs the GUI
endif()
execute_process(COMMAND ${environment} "${PREFIX}/bin/ringviz" record --lesson 05-allreduce-traffic
                        --out frames/ --size 320x240 --fps 10 --seconds 0.1
                WORKING_DIRECTORY "${elsewhere}" RESULT_VARIABLE recorded ERROR_VARIABLE said OUTPUT_QUIET)
if(NOT recorded EQUAL 0 OR NOT EXISTS "${elsewhere}/frames/frame-000000.png")
  message(FATAL_ERROR "the installed ringviz did not record the shipped lesson (exit ${recorded}): ${said}")
endif()

execute_process(COMMAND ${environment} "${PREFIX}/bin/ringviz" record --lesson no-such-lesson --out frames/
                WORKING_DIRECTORY "${elsewhere}" RESULT_VARIABLE refused ERROR_VARIABLE said OUTPUT_QUIET)
string(FIND "${said}" "in ${PREFIX}/share/ringviz/lessons (the lessons: 01-why-synchronise, " installed_named)
if(NOT refused EQUAL 2 OR installed_named EQUAL -1)
  message(FATAL_ERROR "an unknown lesson should exit 2 naming ${PREFIX}/share/ringviz/lessons and its lessons; "
                      "got exit ${refused}: ${said}")
endif()
