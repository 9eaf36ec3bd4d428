# ctest (cmake -P): installs the build tree into a scratch prefix, builds
# tests/install (a program outside the tree) against it with find_package(carcsolo), and
# checks that it plays the same game as the carcsolo program and that the static engine
# library kept every registered policy.
# Variables: BUILD (carcsolo's build tree), SOURCE (tests/install), CARCSOLO (the binary),
# WORK (scratch), GENERATOR.
file(REMOVE_RECURSE "${WORK}")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "${cmd} failed (${rc}):\n${out}\n${err}")
  endif()
  set(OUT "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install "${BUILD}" --prefix "${WORK}/prefix")
run(${CMAKE_COMMAND} -S "${SOURCE}" -B "${WORK}/build" -G "${GENERATOR}"
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${WORK}/prefix")
run(${CMAKE_COMMAND} --build "${WORK}/build")

# The same game, played by the outside program and logged by carcsolo.
run("${WORK}/build/consumer" heuristic best 5 3)
set(mine "${OUT}")
run("${CARCSOLO}" replay --seed 5 --game 3 --placement heuristic --scoring best)
string(JSON result GET "${OUT}" result)
string(JSON s0 GET "${OUT}" scores 0)
string(JSON s1 GET "${OUT}" scores 1)
string(JSON s2 GET "${OUT}" scores 2)
string(JSON tiles GET "${OUT}" end tiles_placed)
set(theirs "result ${result} scores ${s0} ${s1} ${s2} tiles ${tiles}\n")
if(NOT mine STREQUAL theirs)
  message(FATAL_ERROR "the installed library plays another game:\n  consumer: ${mine}  carcsolo: ${theirs}")
endif()
message(STATUS "consumer and carcsolo agree: ${mine}")

# Every policy the program knows is registered in a program that links only the engine.
run("${WORK}/build/consumer_engine" mc:rollouts=2)
set(engine_out "${OUT}")
run("${CARCSOLO}" policies)
foreach(name random greedy heuristic mc as-found lowest-first best)
  if(NOT engine_out MATCHES "(placement|scoring) ${name}\n")
    message(FATAL_ERROR "policy ${name} missing from a program linked with the static engine:\n${engine_out}")
  endif()
endforeach()
if(NOT engine_out MATCHES "played [0-9]+ tiles, result [0-9]+")
  message(FATAL_ERROR "the engine-only program played no game:\n${engine_out}")
endif()
message(STATUS "${engine_out}")
