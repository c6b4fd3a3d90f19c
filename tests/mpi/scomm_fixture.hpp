// Shared by the MPI tests of communicators: a fixture that brackets each test with SCOMM_Init and
// SCOMM_Finalize, helpers that read a scomm communicator's members as world ranks, and a check
// that messages on overlapping communicators stay apart.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <numeric>
#include <vector>

#include "scomm.h"

class ScommTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size_);
  }
  void TearDown() override { ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS); }

  int world_rank_ = 0;
  int world_size_ = 0;
};

// The world reversed (rank r is world rank p - 1 - r) under MPI and under scomm: the same
// members in the same order, ranks that are not the world's, and each rank's ring neighbours.
class ReversedWorldTest : public ScommTest {
 protected:
  void SetUp() override {
    ScommTest::SetUp();
    MPI_Comm_split(MPI_COMM_WORLD, 0, -world_rank_, &mpi_);
    ASSERT_EQ(SCOMM_Comm_split(SCOMM_COMM_WORLD, 0, -world_rank_, &comm_), SCOMM_SUCCESS);
    MPI_Comm_rank(mpi_, &rank_);
    MPI_Comm_size(mpi_, &size_);
    left_ = (rank_ + size_ - 1) % size_;
    right_ = (rank_ + 1) % size_;
  }
  void TearDown() override {
    SCOMM_Comm_free(&comm_);
    MPI_Comm_free(&mpi_);
    ScommTest::TearDown();
  }

  MPI_Comm mpi_ = MPI_COMM_NULL;
  SCOMM_Comm comm_ = SCOMM_COMM_NULL;
  int rank_ = 0, size_ = 1, left_ = 0, right_ = 0;
};

// Sets (or, for nullptr, unsets) an environment variable at every rank. All SMPI ranks share one
// environment: it changes only between barriers, so no rank reads it meanwhile.
inline void set_environment_together(const char* name, const char* value) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (value == nullptr)
    unsetenv(name);
  else
    setenv(name, value, 1);
  MPI_Barrier(MPI_COMM_WORLD);
}

// A committed type of `count` ints at the absolute address of `first`, for buffers at
// MPI_BOTTOM (null in Open MPI and MPICH).
class AbsoluteInts {
 public:
  AbsoluteInts(const int* first, int count) {
    MPI_Aint address = 0;
    MPI_Get_address(first, &address);
    MPI_Type_create_hindexed(1, &count, &address, MPI_INT, &type_);
    MPI_Type_commit(&type_);
  }
  AbsoluteInts(const AbsoluteInts&) = delete;
  AbsoluteInts& operator=(const AbsoluteInts&) = delete;
  ~AbsoluteInts() { MPI_Type_free(&type_); }
  MPI_Datatype type() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

inline int error_class_of(int code) {
  int result = -1;
  SCOMM_Error_class(code, &result);
  return result;
}

// Waits for `request` and writes to *cancelled whether it completed cancelled
// (SCOMM_Test_cancelled); callers wrap it in ASSERT_NO_FATAL_FAILURE.
inline void wait_cancelled(SCOMM_Request& request, int* cancelled) {
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Wait(&request, &status), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Test_cancelled(&status, cancelled), SCOMM_SUCCESS);
}

// The world ranks of a scomm communicator's members, in its rank order.
inline std::vector<int> members_of(SCOMM_Comm comm) {
  SCOMM_Group group = SCOMM_GROUP_NULL, world = SCOMM_GROUP_NULL;
  SCOMM_Comm_group(comm, &group);
  int size = 0, world_size = 0;
  SCOMM_Group_size(group, &size);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  SCOMM_Group_world(world_size, &world);
  std::vector<int> ranks(static_cast<std::size_t>(size)), out(ranks.size());
  std::iota(ranks.begin(), ranks.end(), 0);
  SCOMM_Group_translate_ranks(group, size, ranks.data(), world, out.data());
  SCOMM_Group_free(&group);
  SCOMM_Group_free(&world);
  return out;
}

// The world ranks of an MPI communicator's members, in its rank order.
inline std::vector<int> members_of_mpi(MPI_Comm comm) {
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<int> ranks(static_cast<std::size_t>(size)), out(ranks.size());
  std::iota(ranks.begin(), ranks.end(), 0);
  MPI_Group_translate_ranks(group, size, ranks.data(), world, out.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  return out;
}

// A ring on each of `comms` at once, every message of the same tag, each receive for ANY_SOURCE
// and ANY_TAG: the matching engine files the messages by context, so each must arrive on its own
// communicator (its place in `comms`, the same at every member) from its ring neighbour. A
// process outside a communicator passes SCOMM_COMM_NULL in its place.
inline void expect_rings_apart(const std::vector<SCOMM_Comm>& comms) {
  const std::size_t n = comms.size();
  std::vector<int> got(n, -1), sent(n), previous(n);
  std::vector<SCOMM_Request> requests(2 * n, SCOMM_REQUEST_NULL);
  for (std::size_t i = 0; i < n; ++i) {
    if (comms[i] == SCOMM_COMM_NULL) continue;
    int rank = 0, size = 0;
    SCOMM_Comm_rank(comms[i], &rank);
    SCOMM_Comm_size(comms[i], &size);
    previous[i] = (rank + size - 1) % size;
    sent[i] = static_cast<int>(i) * 1000 + rank;
    SCOMM_Irecv(&got[i], 1, MPI_INT, SCOMM_ANY_SOURCE, SCOMM_ANY_TAG, comms[i], &requests[2 * i]);
    SCOMM_Isend(&sent[i], 1, MPI_INT, (rank + 1) % size, 5, comms[i], &requests[2 * i + 1]);
  }
  std::vector<SCOMM_Status> statuses(2 * n);
  ASSERT_EQ(SCOMM_Waitall(static_cast<int>(2 * n), requests.data(), statuses.data()),
            SCOMM_SUCCESS);
  for (std::size_t i = 0; i < n; ++i) {
    if (comms[i] == SCOMM_COMM_NULL) continue;
    EXPECT_EQ(got[i], static_cast<int>(i) * 1000 + previous[i]) << "communicator " << i;
    EXPECT_EQ(statuses[2 * i].SCOMM_SOURCE, previous[i]) << "communicator " << i;
  }
}
