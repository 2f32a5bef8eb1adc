// MPI_CHECK: the always-on check of every MPI call in cluster/ (docs/design.md "Errors are data").
// A failing call is reported as "gpusynth: rank R of N on HOST: FILE:LINE: CALL failed: WHY"
// and the whole job is aborted: an MPI error leaves the ranks' protocol in an unknown state, and
// aborting is what keeps the run directory resumable (every rank's records are flushed after
// each batch). Communicators used here return errors (MPI_ERRORS_RETURN) so that this check,
// not MPI's default handler, reports them.
#pragma once

#include <mpi.h>

namespace gs::cluster::detail {

// Reports and aborts when rc is not MPI_SUCCESS.
void mpi_check(int rc, const char* call, const char* file, int line);
// Prints "gpusynth: rank R of N on HOST: FILE:LINE: CALL failed: WHY" and aborts the whole job
// (MPI_Abort): what every always-on check in cluster/ (MPI, CUDA, NCCL) does on failure.
[[noreturn]] void fail_job(const char* call, const char* why, const char* file, int line);

}  // namespace gs::cluster::detail

#define MPI_CHECK(call) ::gs::cluster::detail::mpi_check((call), #call, __FILE__, __LINE__)
