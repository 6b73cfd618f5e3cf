// The deck of clause 5.2.4.2; see deck.hpp.
#include "terminal/deck.hpp"

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <utility>

namespace tpcc::terminal {

static_assert(std::accumulate(txn::deck_cards.begin(), txn::deck_cards.end(), 0) ==
                  static_cast<int>(deck_size),
              "txn::deck_cards must add up to one 100-card deck");

deck::deck() noexcept {
  std::size_t at = 0;
  for (const txn::kind k : txn::all_kinds) {
    for (int i = 0; i < txn::deck_cards[txn::index(k)]; ++i) cards_[at++] = k;
  }
}

txn::kind deck::next(random::rng& r) noexcept {
  if (position_ == deck_size) {
    shuffle(r);
    position_ = 0;
  }
  return cards_[position_++];
}

void deck::shuffle(random::rng& r) noexcept {
  for (std::size_t i = deck_size - 1; i > 0; --i) {
    const auto j = static_cast<std::size_t>(r.uniform(0, static_cast<std::int64_t>(i)));
    std::swap(cards_[i], cards_[j]);
  }
}

}  // namespace tpcc::terminal
