// One owner of MPI's initialisation for the whole process (docs/cluster.md "Collectives").
//
// The work queue and the collectives both use MPI, and MPI may be initialised and finalised
// only once per process. Every user holds an MpiSession for as long as it makes MPI calls: the
// first session initialises MPI (MPI_THREAD_FUNNELED: every call from the thread that made the
// first session) unless someone else already has, and the last one to end finalises it, if a
// session initialised it. So a process with one user behaves exactly as if that user owned MPI,
// and two users nest. MPI cannot start again once finalised: a process that makes MPI users one
// after another must keep one alive across them (a session after the last has ended throws).
// Internal to cluster/: nothing outside it calls MPI.
#pragma once

#include <string>

#include "base/hd.h"
#include "cluster/mpi_check.h"

namespace gs::cluster {

class MpiSession {
 public:
  MpiSession();   // throws std::runtime_error when MPI was already finalised
  ~MpiSession();  // the last session finalises MPI, if a session initialised it
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

// A user's own duplicate of MPI_COMM_WORLD, whose errors come back to MPI_CHECK (not MPI's
// default abort), with this process's place in it. Holds an MpiSession: MPI is up before the
// communicator is made and after it is freed.
class WorldComm {
 public:
  WorldComm();
  ~WorldComm();
  WorldComm(const WorldComm&) = delete;
  WorldComm& operator=(const WorldComm&) = delete;

  MPI_Comm comm() const { return comm_; }
  u32 rank() const { return rank_; }
  u32 size() const { return size_; }
  // This rank's number among the ranks on its node (MPI_COMM_TYPE_SHARED): mpirun and srun alike.
  u32 node_rank() const { return node_rank_; }
  u32 node_size() const { return node_size_; }  // ranks on this node
  // "rank 2 of 4 on node7"
  std::string where() const;

 private:
  MpiSession session_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  u32 rank_ = 0, size_ = 1, node_rank_ = 0, node_size_ = 1;
  std::string host_;
};

}  // namespace gs::cluster
