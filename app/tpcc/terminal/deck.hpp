// app/tpcc/terminal/deck.hpp: the deck that picks each terminal's next transaction type
// (TPC-C clause 5.2.4.2).
//
// What: 100 cards, 45 New-Order, 43 Payment, 4 Order-Status, 4 Delivery, 4 Stock-Level
// (txn::deck_cards), shuffled; `next` deals them in order and reshuffles once all 100 are
// dealt, so every 100 consecutive deals from a fresh deck hold the exact mix, and the mix is
// met over any window of a run, not only on average.
// Lifetime: a plain value; one deck per terminal. Thread-safety: none (the terminal's own).
#pragma once

#include <array>
#include <cstddef>

#include "random/rng.hpp"
#include "txn/kind.hpp"

namespace tpcc::terminal {

inline constexpr std::size_t deck_size = 100;

class deck {
 public:
  deck() noexcept;

  // The next card; shuffles (Fisher-Yates, with r) before the first deal and after the 100th.
  txn::kind next(random::rng& r) noexcept;

 private:
  void shuffle(random::rng& r) noexcept;

  std::array<txn::kind, deck_size> cards_{};
  std::size_t position_ = deck_size;  // deck_size: exhausted, shuffle before dealing
};

}  // namespace tpcc::terminal
