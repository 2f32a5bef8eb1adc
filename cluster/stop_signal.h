// The stop signal: SIGTERM — what Slurm sends at preemption or the time limit, and what mpirun
// forwards to its ranks — asks a campaign to stop at its next batch boundary and leave files a
// re-run resumes from. The first SIGTERM only sets a flag; the handler then reverts to the
// default, so a second SIGTERM ends the process at once.
#pragma once

namespace gs::cluster {

// Installs the handler (idempotent). Called by make_work_queue().
void install_stop_signal();
// Puts back the handler that was there before install_stop_signal().
void remove_stop_signal();
// Whether SIGTERM has arrived since install_stop_signal().
bool stop_signalled();
// Sets the flag as SIGTERM would, and clears it (tests).
void raise_stop_flag();
void reset_stop_flag();

}  // namespace gs::cluster
