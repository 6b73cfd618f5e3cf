// SPDX-License-Identifier: Apache-2.0
// The deck of clause 5.2.4.2: every 100 deals hold exactly 45/43/4/4/4, the order is shuffled
// and differs from deck to deck.
#include "terminal/deck.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <vector>

#include "random/rng.hpp"
#include "txn/kind.hpp"

namespace {

using tpcc::random::rng;
using tpcc::terminal::deck;
using tpcc::terminal::deck_size;
using tpcc::txn::kind;

std::vector<kind> deal(deck& d, rng& r, std::size_t count) {
  std::vector<kind> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) out.push_back(d.next(r));
  return out;
}

TEST(random_deck, EveryHundredDealsHoldTheExactMix) {
  rng r{301};
  deck d;
  const auto cards = deal(d, r, 50 * deck_size);
  for (std::size_t start = 0; start < cards.size(); start += deck_size) {
    std::array<int, tpcc::txn::kind_count> counts{};
    for (std::size_t i = start; i < start + deck_size; ++i) ++counts[tpcc::txn::index(cards[i])];
    EXPECT_EQ(counts, tpcc::txn::deck_cards) << "deck starting at deal " << start;
  }
}

TEST(random_deck, SuccessiveDecksAreInDifferentOrders) {
  rng r{303};
  deck d;
  const auto first = deal(d, r, deck_size);
  const auto second = deal(d, r, deck_size);
  const auto third = deal(d, r, deck_size);
  EXPECT_NE(first, second);
  EXPECT_NE(second, third);
  EXPECT_NE(first, third);
}

TEST(random_deck, TerminalsWithDifferentStreamsDealDifferently) {
  rng parent{305};
  rng a = parent.split();
  rng b = parent.split();
  deck da;
  deck db;
  EXPECT_NE(deal(da, a, deck_size), deal(db, b, deck_size));
}

// A real shuffle puts New-Order (45 cards) at any given position 45% of the time: the first
// and the last card of 20000 fresh decks. An unshuffled or badly shuffled deck fails this.
TEST(random_deck, EveryPositionIsNewOrderFortyFivePercentOfTheTime) {
  rng r{307};
  constexpr int decks = 20000;
  int first_new_order = 0;
  int last_new_order = 0;
  for (int i = 0; i < decks; ++i) {
    deck d;
    const auto cards = deal(d, r, deck_size);
    first_new_order += cards.front() == kind::new_order ? 1 : 0;
    last_new_order += cards.back() == kind::new_order ? 1 : 0;
  }
  EXPECT_NEAR(static_cast<double>(first_new_order) / decks, 0.45, 0.02);
  EXPECT_NEAR(static_cast<double>(last_new_order) / decks, 0.45, 0.02);
}

}  // namespace
