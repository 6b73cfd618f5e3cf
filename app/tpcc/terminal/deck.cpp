// SPDX-License-Identifier: Apache-2.0
// The deck of clause 5.2.4.2; see deck.hpp.
#include "terminal/deck.hpp"

#include <cstddef>
#include <cstdint>
#include <numeric>

namespace tpcc::terminal {

static_assert(std::accumulate(txn::deck_cards.begin(), txn::deck_cards.end(), 0) ==
                  static_cast<int>(deck_size),
              "txn::deck_cards must add up to one 100-card deck");

txn::kind deck::next(random::rng& r) noexcept {
  if (total_left_ == 0) {
    for (std::size_t k = 0; k < txn::kind_count; ++k) {
      left_[k] = static_cast<std::uint8_t>(txn::deck_cards[k]);
    }
    total_left_ = static_cast<std::uint8_t>(deck_size);
  }
  auto card = r.uniform(0, total_left_ - 1);  // the position of the card among those left
  std::size_t k = 0;
  while (card >= left_[k]) card -= left_[k++];
  --left_[k];
  --total_left_;
  return txn::all_kinds[k];
}

}  // namespace tpcc::terminal
