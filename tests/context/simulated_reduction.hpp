// Several virtual processes in one test process: each member of a simulated communicator gets a
// Reducer whose k-th reduction joins the communicator's k-th round and completes once every
// member has contributed, so allocation algorithms can be driven in any interleaving.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <vector>

#include "scomm/context/reducer.hpp"

namespace scomm::context::testing {

class SimulatedCommunicator {
 public:
  explicit SimulatedCommunicator(std::size_t members) : members_(members) {}

  class MemberReducer final : public Reducer {
   public:
    MemberReducer(SimulatedCommunicator& comm) : comm_(comm) {}
    void start_max(std::span<std::int64_t> values) override {
      join(
          [&](std::vector<std::int64_t>& acc) {
            for (std::size_t i = 0; i < values.size(); ++i) acc[i] = std::max(acc[i], values[i]);
          },
          values.size(), INT64_MIN);
      max_out_ = values;
      and_out_ = {};
    }
    void start_and(std::span<std::uint64_t> bits) override {
      join(
          [&](std::vector<std::int64_t>& acc) {
            for (std::size_t i = 0; i < bits.size(); ++i)
              acc[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc[i]) & bits[i]);
          },
          bits.size(), -1);
      and_out_ = bits;
      max_out_ = {};
    }
    bool test() override {
      const Round& round = comm_.rounds_[round_ - 1];
      if (round.contributed < comm_.members_) return false;
      for (std::size_t i = 0; i < max_out_.size(); ++i) max_out_[i] = round.values[i];
      for (std::size_t i = 0; i < and_out_.size(); ++i)
        and_out_[i] = static_cast<std::uint64_t>(round.values[i]);
      return true;
    }

   private:
    template <typename Combine>
    void join(Combine combine, std::size_t size, std::int64_t identity) {
      if (comm_.rounds_.size() <= round_)
        comm_.rounds_.push_back({std::vector<std::int64_t>(size, identity), 0});
      Round& round = comm_.rounds_[round_++];
      combine(round.values);
      ++round.contributed;
    }

    SimulatedCommunicator& comm_;
    std::size_t round_ = 0;
    std::span<std::int64_t> max_out_;
    std::span<std::uint64_t> and_out_;
  };

  std::unique_ptr<MemberReducer> reducer() { return std::make_unique<MemberReducer>(*this); }

 private:
  struct Round {
    std::vector<std::int64_t> values;
    std::size_t contributed;
  };
  std::size_t members_;
  std::deque<Round> rounds_;
};

}  // namespace scomm::context::testing
