// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/deck.hpp: the deck that picks each terminal's next transaction type
// (TPC-C clause 5.2.4.2).
//
// What: 100 cards, 45 New-Order, 43 Payment, 4 Order-Status, 4 Delivery, 4 Stock-Level
// (txn::deck_cards), dealt at random without replacement and refilled once all 100 are dealt,
// so every 100 consecutive deals from a fresh deck hold the exact mix, and the mix is met over
// any window of a run, not only on average.
// How: the deck keeps only how many cards of each type are left (5 bytes, not 100 cards; a
// million sleeping terminals each carry one). Dealing a uniformly chosen card among those left
// gives every order of the 100 cards the same probability, as a Fisher-Yates shuffle dealt in
// order does: the same deck, one random draw per card instead of per shuffle step.
// Lifetime: a plain value; one deck per terminal. Thread-safety: none (the terminal's own).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "random/rng.hpp"
#include "txn/kind.hpp"

namespace tpcc::terminal {

inline constexpr std::size_t deck_size = 100;

class deck {
 public:
  deck() noexcept = default;
  // The next card: one drawn uniformly among those left; refills the deck after the 100th.
  txn::kind next(random::rng& r) noexcept;

 private:
  std::array<std::uint8_t, txn::kind_count> left_{};  // cards of each type not yet dealt
  std::uint8_t total_left_ = 0;                       // 0: exhausted, refill before dealing
};

}  // namespace tpcc::terminal
