# Reject option combinations that cannot build, at configure time (xgboost's habit).
if(GPUSYNTH_NCCL AND NOT GPUSYNTH_CUDA)
  message(SEND_ERROR "GPUSYNTH_NCCL=ON needs GPUSYNTH_CUDA=ON (NCCL is a CUDA library)")
endif()
if(GPUSYNTH_NCCL AND NOT GPUSYNTH_MPI)
  message(SEND_ERROR "GPUSYNTH_NCCL=ON needs GPUSYNTH_MPI=ON (the NCCL communicator is bootstrapped over MPI)")
endif()
if(GPUSYNTH_CUDA AND GPUSYNTH_SANITIZE)
  message(SEND_ERROR "GPUSYNTH_SANITIZE=ON needs GPUSYNTH_CUDA=OFF (nvcc objects cannot be instrumented)")
endif()
if(GPUSYNTH_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    message(SEND_ERROR "GPUSYNTH_CUDA=ON but no CUDA compiler was found (set CMAKE_CUDA_COMPILER or turn the option off)")
  endif()
endif()
if(GPUSYNTH_TORCH)
  find_package(Torch QUIET)
  if(NOT Torch_FOUND)
    message(SEND_ERROR "GPUSYNTH_TORCH=ON but libtorch was not found (apt-get install libtorch-dev, or set CMAKE_PREFIX_PATH to PyTorch's cmake prefix)")
  endif()
endif()
if(GPUSYNTH_MPI)
  find_package(MPI QUIET COMPONENTS CXX)
  if(NOT MPI_FOUND)
    message(SEND_ERROR "GPUSYNTH_MPI=ON but MPI was not found (apt-get install libopenmpi-dev openmpi-bin)")
  endif()
endif()

# A module is one library target named gpusynth::<folder>.
function(gpusynth_module name)
  cmake_parse_arguments(M "" "" "SOURCES;DEPS;CUDA_SOURCES" ${ARGN})
  add_library(gpusynth_${name} STATIC ${M_SOURCES})
  add_library(gpusynth::${name} ALIAS gpusynth_${name})
  # Headers are included by their folder ("vm/value.h"): from the source tree when building,
  # from include/gpusynth/ once installed (cmake/install.cmake).
  target_include_directories(gpusynth_${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                                     $<INSTALL_INTERFACE:include/gpusynth>)
  set_target_properties(gpusynth_${name} PROPERTIES EXPORT_NAME ${name})  # gpusynth::<folder>
  set_property(GLOBAL APPEND PROPERTY GPUSYNTH_MODULES ${name})
  target_link_libraries(gpusynth_${name} PUBLIC ${M_DEPS})
  if(GPUSYNTH_CUDA AND M_CUDA_SOURCES)
    # The .cu files compile in their own object library so that they can share the one-job
    # `cuda` pool (gpusynth_cuda_job_pool).
    add_library(gpusynth_${name}_cuda OBJECT ${M_CUDA_SOURCES})
    target_include_directories(gpusynth_${name}_cuda PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
    target_link_libraries(gpusynth_${name}_cuda PUBLIC ${M_DEPS} CUDA::cudart)
    gpusynth_cuda_job_pool(gpusynth_${name}_cuda)
    target_sources(gpusynth_${name} PRIVATE $<TARGET_OBJECTS:gpusynth_${name}_cuda>)
    target_compile_definitions(gpusynth_${name} PUBLIC GPUSYNTH_HAVE_CUDA=1)
    target_link_libraries(gpusynth_${name} PUBLIC CUDA::cudart)
  endif()
endfunction()

# nvcc's ptxas needs 5-9 GB and minutes for a translation unit that instantiates the compiler
# core: two at once exhaust a CI machine's memory. Ninja runs the targets given here one
# compile at a time (GPUSYNTH_CUDA_JOBS), beside any number of C++ compiles.
set(GPUSYNTH_CUDA_JOBS 1 CACHE STRING "CUDA translation units compiled at once (Ninja)")
set_property(GLOBAL APPEND PROPERTY JOB_POOLS cuda=${GPUSYNTH_CUDA_JOBS})
function(gpusynth_cuda_job_pool target)
  set_property(TARGET ${target} PROPERTY JOB_POOL_COMPILE cuda)
endfunction()
