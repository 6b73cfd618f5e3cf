// SPDX-License-Identifier: Apache-2.0
// 16_bank_actors: a bank of accounts, each an actor, transferring money between each other.
//
// Shows: an actor is an object whose methods start with `co_await ctx_();`; its fields need no
// mutex, because only one coroutine at a time runs on its context. A transfer is a method of the
// source account that debits itself and then calls deposit() on the destination: a call from
// one actor into another, which lets the source's context go while it waits (so others may use
// the source meanwhile) and takes it back afterwards. 64 tellers on 2 workers make 160,000
// random transfers; the total never changes and no balance ever goes negative.
#include <shoal/actor.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "support/check.hpp"

namespace {

constexpr int accounts = 16;
constexpr std::int64_t opening_balance = 1000;
constexpr int tellers = 64;
constexpr int transfers_per_teller = 2500;

class account {
 public:
  shoal::actor_task<> deposit(std::int64_t amount) {
    co_await ctx_();
    balance_ += amount;
  }

  // Debits this account and credits `to`; false (nothing moved) when the funds are short.
  shoal::actor_task<bool> transfer_to(account& to, std::int64_t amount) {
    co_await ctx_();
    if (balance_ < amount) co_return false;
    balance_ -= amount;  // done before the call below: no invariant is left open across it
    co_await to.deposit(amount);
    co_return true;
  }

  shoal::actor_task<std::int64_t> balance() {
    co_await ctx_();
    co_return balance_;
  }

 private:
  shoal::actor_context ctx_;
  std::int64_t balance_ = opening_balance;
};

shoal::task<> teller(std::vector<account>& bank, unsigned seed, std::atomic<int>& refused) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, accounts - 1);
  std::uniform_int_distribution<std::int64_t> amount(1, 100);
  for (int i = 0; i < transfers_per_teller; ++i) {
    const int from = pick(rng);
    const int to = pick(rng);
    if (!co_await bank[from].transfer_to(bank[to], amount(rng))) {
      refused.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

// Every balance, read through each account's own context.
shoal::task<std::vector<std::int64_t>> balances(std::vector<account>& bank) {
  std::vector<std::int64_t> out;
  out.reserve(bank.size());
  for (account& a : bank) out.push_back(co_await a.balance());
  co_return out;
}

}  // namespace

int main() {
  std::printf("16_bank_actors\n");
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  std::vector<account> bank(accounts);
  std::atomic<int> refused{0};
  for (unsigned t = 0; t < tellers; ++t) pool.spawn(teller(bank, t + 1, refused));
  shoal::sync_wait(pool.stop());  // stop waits for every spawned teller to finish

  const std::vector<std::int64_t> end = shoal::sync_wait(balances(bank));
  std::int64_t total = 0;
  bool never_negative = true;
  for (std::int64_t b : end) {
    total += b;
    never_negative = never_negative && b >= 0;
  }
  std::printf("  %d transfers, %d refused for lack of funds, total %lld\n",
              tellers * transfers_per_teller, refused.load(), static_cast<long long>(total));
  examples::check(total == accounts * opening_balance, "the total is what the bank opened with");
  examples::check(never_negative, "no account is overdrawn");
  examples::check(refused.load() < tellers * transfers_per_teller, "most transfers went through");
  return examples::finish("16_bank_actors");
}
