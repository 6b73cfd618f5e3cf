// SPDX-License-Identifier: Apache-2.0
// 01_hello_task: shoal::task<T> and shoal::sync_wait, with no threads at all.
//
// Shows: a task is lazy (creating it runs nothing; awaiting it runs it, on the awaiting
// thread); tasks await tasks and get their values (T and T&); an exception thrown in a task
// comes out of the co_await that awaited it, and out of sync_wait when nobody caught it.
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "support/check.hpp"

namespace {

using examples::check;

int bodies_run = 0;

shoal::task<int> answer() {
  ++bodies_run;
  co_return 42;
}

shoal::task<int> sum_of_answers() {  // values flow back through co_await
  const int a = co_await answer();
  co_return a + co_await answer();
}

// task<T&>: a reference into something that outlives the task.
shoal::task<std::string&> pick(std::string& a, std::string& b) { co_return b.empty() ? a : b; }

shoal::task<void> fail(std::string why) {
  throw std::runtime_error(why);
  co_return;
}

shoal::task<std::string> recover() {  // catches what its child threw, like a function call
  try {
    co_await fail("the child failed");
  } catch (const std::runtime_error& e) {
    co_return std::string("caught: ") + e.what();
  }
  co_return "not caught";
}

}  // namespace

int main() {
  std::printf("01_hello_task\n");
  shoal::task<int> t = answer();
  check(bodies_run == 0, "creating a task runs nothing");
  check(shoal::sync_wait(std::move(t)) == 42 && bodies_run == 1, "sync_wait runs it: 42");
  check(shoal::sync_wait(sum_of_answers()) == 84, "a task awaiting tasks: 42 + 42 = 84");

  std::string left = "left";
  std::string right = "right";
  shoal::sync_wait(pick(left, right)) += "!";
  check(right == "right!", "task<std::string&> returns a reference, not a copy");

  check(shoal::sync_wait(recover()) == "caught: the child failed",
        "an exception reaches the co_await of the parent");
  bool thrown = false;
  try {
    shoal::sync_wait(fail("nobody caught it"));
  } catch (const std::runtime_error& e) {
    thrown = std::string(e.what()) == "nobody caught it";
  }
  check(thrown, "an uncaught exception comes out of sync_wait");
  return examples::finish("01_hello_task");
}
