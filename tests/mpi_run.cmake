# ctest (cmake -P): `mpirun -np 2 carcsolo run ...` must write the results file that one
# process writes for the same seed and games, but for `performance`; likewise 3 processes
# over a range that does not start at 0 nor split evenly, and `compare` and `sweep` (their
# runs' `performance` aside), and --until-ci (compare's --max-games spelling, a goal rule of
# run) stopping at the same game. Bad input is one line and status 2; the default thread
# count is said. An internal error in one process ends the job with no file.
# Variables: CARCSOLO (the binary), CARCSOLO_FAULTY (it with the test-only `faulty`
# policy), MPIEXEC (mpirun), WORK (a scratch directory).
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
# Containers often forbid the cross-memory attach Open MPI's shared-memory transport uses.
set(ENV{OMPI_MCA_btl_vader_single_copy_mechanism} "none")

# A document without `performance` (which holds the command line), also in each of its
# `runs` (compare, sweep).
function(without_performance var text)
  string(JSON text REMOVE "${text}" performance)
  string(JSON n ERROR_VARIABLE no_runs LENGTH "${text}" runs)
  if(NOT no_runs)
    math(EXPR last "${n} - 1")
    foreach(k RANGE ${last})
      string(JSON text REMOVE "${text}" runs ${k} performance)
    endforeach()
  endif()
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# `carcsolo COMMAND ARGS` on `ranks` processes writes the file one process writes.
function(same_file ranks command args)
  execute_process(COMMAND "${CARCSOLO}" ${command} ${args} --threads 2 -q --out "${WORK}/one.json"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "single-process ${command} failed (${rc}): ${err}")
  endif()
  execute_process(COMMAND "${MPIEXEC}" --allow-run-as-root --oversubscribe -np ${ranks}
                          "${CARCSOLO}" ${command} ${args} --threads 1 -q --out "${WORK}/mpi.json"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mpirun -np ${ranks} ${command} failed (${rc}): ${out} ${err}")
  endif()
  file(READ "${WORK}/one.json" one)
  file(READ "${WORK}/mpi.json" mpi)
  string(JSON games GET "${mpi}" config games)
  without_performance(one "${one}")
  without_performance(mpi "${mpi}")
  if(NOT one STREQUAL mpi)
    message(FATAL_ERROR "mpirun -np ${ranks} ${command} (${args}): the file differs from one process's")
  endif()
  message(STATUS "mpirun -np ${ranks} ${command} ${args}: ${games} games, identical to one process")
endfunction()

same_file(2 run "--games;3000;--seed;11")
same_file(3 run "--first-game;17;--games;1001;--seed;4;--scoring;random;--colors;4")
same_file(2 compare "--scoring;as-found;--scoring;random;--scoring;lowest-first;--first-game;5;--games;1500;--seed;3")
same_file(2 compare "--scoring;as-found;--scoring;random;--games;300;--max-games;100000;--until-ci;0.08;--seed;3")
same_file(2 run "--placement;greedy;--scoring;best;--until-ci;city_16=0.015;--games;100000;--seed;3")
same_file(3 sweep "--meeples;2..3;--colors;3,4;--first-game;40;--games;701;--target;mean=4")

# Bad input under mpirun: every process finds it, process 0 alone prints the one line, and
# every process exits with status 2 (no MPI_Abort; mpirun then adds its own note that a
# process exited with a non-zero status). --per-game is refused so, by run and compare.
function(one_line_usage_error command args expected)
  execute_process(COMMAND "${MPIEXEC}" --allow-run-as-root --oversubscribe -np 2
                          "${CARCSOLO}" ${command} ${args} --threads 1 -q --out "${WORK}/refused.json"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  string(REGEX MATCHALL "carcsolo ${command}: " lines "${err}")
  list(LENGTH lines n)
  if(NOT rc EQUAL 2 OR NOT n EQUAL 1 OR NOT err MATCHES "carcsolo ${command}: ${expected}"
     OR err MATCHES "MPI_ABORT" OR EXISTS "${WORK}/refused.json" OR EXISTS "${WORK}/rows.csv")
    message(FATAL_ERROR "mpirun -np 2 ${command} ${args}: status ${rc} (want 2), ${n} lines of carcsolo "
                        "(want 1 naming '${expected}'), or a file: ${err}")
  endif()
  message(STATUS "mpirun -np 2 ${command} ${args}: status 2, one line")
endfunction()
one_line_usage_error(run "--games;100;--per-game;${WORK}/rows.csv" "--per-game cannot be written under mpirun")
one_line_usage_error(compare "--scoring;best;--scoring;random;--games;100;--per-game;${WORK}/rows.csv"
                     "--per-game cannot be written under mpirun")
one_line_usage_error(run "--games;0" "--games must be an integer")

# Without --threads, process 0 says how many threads each process plays on (the default
# follows the cores mpirun binds a process to); with --threads, nothing.
execute_process(COMMAND "${MPIEXEC}" --allow-run-as-root --oversubscribe -np 2
                        "${CARCSOLO}" run --games 200 -q --out "${WORK}/default-threads.json"
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 120)
string(REGEX MATCHALL "under mpirun: 2 processes, [0-9]+ threads? each \\(--threads defaults" lines "${err}")
list(LENGTH lines n)
file(READ "${WORK}/default-threads.json" doc)
string(JSON threads GET "${doc}" performance threads)
if(NOT rc EQUAL 0 OR NOT n EQUAL 1 OR NOT err MATCHES "2 processes, ${threads} threads? each")
  message(FATAL_ERROR "mpirun -np 2 run without --threads: status ${rc}, ${n} notes (want 1 saying "
                      "${threads} thread(s), as the file does): ${err}")
endif()
execute_process(COMMAND "${MPIEXEC}" --allow-run-as-root --oversubscribe -np 2
                        "${CARCSOLO}" run --games 200 --threads 1 -q
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0 OR err MATCHES "under mpirun")
  message(FATAL_ERROR "mpirun -np 2 run --threads 1: status ${rc}, or a note about threads: ${err}")
endif()
message(STATUS "mpirun -np 2 without --threads: one note naming ${threads} thread(s) each")

# An internal error (the `faulty` policy throws in the worker threads of every process):
# the job fails, no process hangs, and no file is written.
if(CARCSOLO_FAULTY)
  execute_process(COMMAND "${MPIEXEC}" --allow-run-as-root --oversubscribe -np 2
                          "${CARCSOLO_FAULTY}" compare --placement random --placement faulty:after=3000
                          --games 100000000 --threads 1 -q --out "${WORK}/failed.json"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(rc EQUAL 0 OR EXISTS "${WORK}/failed.json" OR NOT err MATCHES "internal error: faulty policy")
    message(FATAL_ERROR "mpirun -np 2 with an internal error: status ${rc}, file or message wrong: ${err}")
  endif()
  message(STATUS "mpirun -np 2 with an internal error: status ${rc}, no file")
endif()

# `carcsolo positions` on `ranks` processes writes the very bytes one process writes (its
# header records no thread or process count).
function(same_positions ranks args)
  execute_process(COMMAND "${CARCSOLO}" positions ${args} --threads 2 -q --out "${WORK}/one.bin"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "single-process positions failed (${rc}): ${err}")
  endif()
  execute_process(COMMAND "${MPIEXEC}" --allow-run-as-root --oversubscribe -np ${ranks}
                          "${CARCSOLO}" positions ${args} --threads 1 -q --out "${WORK}/mpi.bin"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mpirun -np ${ranks} positions failed (${rc}): ${out} ${err}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${WORK}/one.bin" "${WORK}/mpi.bin"
                  RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "mpirun -np ${ranks} positions (${args}): the file differs from one process's")
  endif()
  file(SIZE "${WORK}/mpi.bin" bytes)
  message(STATUS "mpirun -np ${ranks} positions ${args}: ${bytes} bytes, identical to one process")
endfunction()

same_positions(2 "--games;300;--seed;11;--mix;--placement;greedy;--scoring;best")
same_positions(3 "--first-game;17;--games;101;--seed;4;--placement;heuristic;--colors;4")

# An internal error in the positions driver of every process: no file, no hang.
if(CARCSOLO_FAULTY)
  execute_process(COMMAND "${MPIEXEC}" --allow-run-as-root --oversubscribe -np 2
                          "${CARCSOLO_FAULTY}" positions --placement faulty:after=3000
                          --games 100000000 --threads 1 -q --out "${WORK}/failed.bin"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(rc EQUAL 0 OR EXISTS "${WORK}/failed.bin" OR NOT err MATCHES "internal error: faulty policy")
    message(FATAL_ERROR "mpirun -np 2 positions with an internal error: status ${rc}, file or message wrong: ${err}")
  endif()
  message(STATUS "mpirun -np 2 positions with an internal error: status ${rc}, no file")
endif()
