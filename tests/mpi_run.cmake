# ctest (cmake -P): `mpirun -np 2 carcsolo run ...` must write the results file that one
# process writes for the same seed and games, but for `performance`; likewise 3 processes
# over a range that does not start at 0 nor split evenly.
# Variables: CARCSOLO (the binary), MPIEXEC (mpirun), WORK (a scratch directory).
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
# Containers often forbid the cross-memory attach Open MPI's shared-memory transport uses.
set(ENV{OMPI_MCA_btl_vader_single_copy_mechanism} "none")

function(same_results ranks range)
  execute_process(COMMAND "${CARCSOLO}" run ${range} --threads 2 -q --out "${WORK}/one.json"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "single-process run failed (${rc}): ${err}")
  endif()
  execute_process(COMMAND "${MPIEXEC}" --allow-run-as-root --oversubscribe -np ${ranks}
                          "${CARCSOLO}" run ${range} --threads 1 -q --out "${WORK}/mpi.json"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mpirun -np ${ranks} failed (${rc}): ${out} ${err}")
  endif()
  file(READ "${WORK}/one.json" one)
  file(READ "${WORK}/mpi.json" mpi)
  string(JSON games GET "${mpi}" games)
  string(JSON one REMOVE "${one}" performance)
  string(JSON mpi REMOVE "${mpi}" performance)
  if(NOT one STREQUAL mpi)
    message(FATAL_ERROR "mpirun -np ${ranks} (${range}): the results differ from one process's")
  endif()
  message(STATUS "mpirun -np ${ranks} ${range}: ${games} games, identical to one process")
endfunction()

same_results(2 "--games;3000;--seed;11")
same_results(3 "--first-game;17;--games;1001;--seed;4;--scoring;random;--colors;4")
