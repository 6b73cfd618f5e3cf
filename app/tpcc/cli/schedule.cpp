// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/schedule.cpp: --schedule, --sweep and --knee-p90 read and checked (see
// schedule.hpp).
#include "cli/schedule.hpp"

#include <algorithm>
#include <cstdio>

#include "cli/values.hpp"

namespace tpcc::cli {
namespace {

using std::string_view;
using steps_or_error = std::variant<std::vector<schedule_step>, std::string>;

constexpr double most_tpm = 1e9;
constexpr auto longest_schedule = std::chrono::hours(24);

std::optional<double> step_rate(string_view text) {
  const auto v = read_number(text);
  if (!v || !(*v > 0) || *v > most_tpm) return std::nullopt;
  return v;
}

std::optional<std::chrono::nanoseconds> step_duration(string_view text) {
  const auto v = read_duration(text);
  if (!v || v->count() <= 0) return std::nullopt;
  return v;
}

std::string step_error(std::size_t index, string_view text, string_view why) {
  return join({"step ", std::to_string(index), " ('", text, "') ", why});
}

// The `streams=N` suffix of a step (`index`-th, `text` whole) into `step`; what is wrong with it.
std::optional<std::string> read_step_streams(std::size_t index, string_view text, string_view tail,
                                             schedule_step& step) {
  const auto n = tail.starts_with("streams=") ? read_integer(tail.substr(8)) : std::nullopt;
  if (!n || *n < 0 || *n > 1000) {
    return step_error(index, text,
                      "expects RATE:DURATION[:streams=N], N the analytic streams it runs (0 to "
                      "1000), such as rate=600:30s:streams=0");
  }
  step.analytic_streams = *n;
  return std::nullopt;
}

// One `[rate=]TPM:DURATION[:streams=N]`, the `index`-th (1-based), or what is wrong with it.
std::variant<schedule_step, std::string> read_step(std::size_t index, string_view text) {
  if (text.starts_with("tpw=")) {
    return step_error(index, text,
                      "is a terminals step: not supported, a run's terminal set is fixed; "
                      "give rate steps (rate=TPM:DURATION)");
  }
  string_view body = text.starts_with("rate=") ? text.substr(5) : text;
  const auto colon = body.find(':');
  if (colon == string_view::npos) {
    return step_error(index, text, "expects RATE:DURATION, such as rate=60000:30s");
  }
  const auto rate = step_rate(body.substr(0, colon));
  if (!rate) {
    return step_error(index, text,
                      "expects a rate in transactions per minute above 0 and at most 1000000000");
  }
  const string_view rest = body.substr(colon + 1);
  const auto second = rest.find(':');
  const auto length = step_duration(rest.substr(0, second));
  if (!length) return step_error(index, text, "expects a positive duration, such as 30s or 2m");
  schedule_step step{.rate_tpm = *rate, .duration = *length};
  if (second == string_view::npos) return step;
  if (auto wrong = read_step_streams(index, text, rest.substr(second + 1), step)) return *wrong;
  return step;
}

// The whole schedule's bounds: at most max_schedule_steps steps and 24 h.
std::optional<std::string> too_long(const std::vector<schedule_step>& steps) {
  if (steps.size() > max_schedule_steps) {
    return join({"has ", std::to_string(steps.size()), " steps: at most ",
                 std::to_string(max_schedule_steps)});
  }
  std::chrono::nanoseconds total{};
  for (const schedule_step& s : steps) total += s.duration;
  if (total > longest_schedule) return std::string("lasts more than 24 h in all");
  return std::nullopt;
}

std::vector<string_view> split_on(string_view text, char separator) {
  std::vector<string_view> parts;
  while (true) {
    const auto at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

// The first step whose window (the step without its settle time: a quarter of it, at most 5 s,
// as run_result/steps.hpp's settle_seconds) holds fewer than two of the series' intervals, which
// its figures need for their interval; nullopt when every step's does.
std::optional<std::string> step_too_short(const config& c) {
  for (std::size_t i = 0; i < c.schedule.size(); ++i) {
    const std::chrono::duration<double> step = c.schedule[i].duration;
    const double window = step.count() - std::min(5.0, step.count() / 4.0);
    if (window >= 2 * std::chrono::duration<double>(c.interval).count()) continue;
    return join({"--schedule's step ", std::to_string(i + 1),
                 " is too short for --interval: its window (the step without its settle time, a "
                 "quarter of it) must hold two intervals; give a shorter --interval"});
  }
  return std::nullopt;
}

// A step asking for more analytic streams than --analytic-streams opens; nullopt when none does.
std::optional<std::string> step_streams_conflict(const config& c) {
  for (std::size_t i = 0; i < c.schedule.size(); ++i) {
    if (c.schedule[i].analytic_streams <= c.analytic_streams) continue;
    constexpr std::string_view why =
        " analytic streams: --analytic-streams must open at least as many (the most any step "
        "runs)";
    return join({"--schedule's step ", std::to_string(i + 1), " asks for ",
                 std::to_string(c.schedule[i].analytic_streams), why});
  }
  return std::nullopt;
}

}  // namespace

steps_or_error parse_schedule(string_view text) {
  if (text.empty()) return std::string("expects at least one step, such as rate=60000:30s");
  std::vector<schedule_step> steps;
  for (const string_view part : split_on(text, ',')) {
    auto step = read_step(steps.size() + 1, part);
    if (auto* wrong = std::get_if<std::string>(&step)) return std::move(*wrong);
    steps.push_back(std::get<schedule_step>(step));
  }
  if (auto wrong = too_long(steps)) return std::move(*wrong);
  return steps;
}

steps_or_error parse_sweep(string_view text) {
  const std::vector<string_view> parts = split_on(text, ':');
  constexpr string_view shape = "expects FROM:TO:STEPS[:DURATION], such as 30000:120000:4:60s";
  if (parts.size() < 3 || parts.size() > 4) return std::string(shape);
  const auto from = step_rate(parts[0]);
  const auto to = step_rate(parts[1]);
  if (!from || !to || !(*from < *to)) {
    return join({shape, ", with rates in transactions per minute, 0 < FROM < TO <= 1000000000"});
  }
  const auto count = read_integer(parts[2]);
  if (!count || *count < 2 || *count > static_cast<std::int64_t>(max_schedule_steps)) {
    return join({shape, ", with STEPS from 2 to ", std::to_string(max_schedule_steps)});
  }
  const auto length = parts.size() == 4
                          ? step_duration(parts[3])
                          : std::optional(std::chrono::nanoseconds(std::chrono::seconds(60)));
  if (!length) return join({shape, ", with a positive DURATION such as 60s"});
  std::vector<schedule_step> steps;
  for (std::int64_t i = 0; i < *count; ++i) {
    const double share = static_cast<double>(i) / static_cast<double>(*count - 1);
    steps.push_back({.rate_tpm = *from + (*to - *from) * share, .duration = *length});
  }
  if (auto wrong = too_long(steps)) return std::move(*wrong);
  return steps;
}

std::optional<std::string> schedule_conflict(const config& c) {
  if (c.schedule.empty()) {
    if (c.knee_p90.count() > 0) return std::string("--knee-p90 needs --schedule or --sweep");
    return std::nullopt;
  }
  if (c.rate_tpm > 0) {
    return std::string("--schedule (or --sweep) sets the rate step by step: give it or --rate");
  }
  if (c.waits_given) {
    return std::string(
        "--schedule (or --sweep) replaces the keying and think times: it cannot be combined "
        "with --no-wait or --wait-scale");
  }
  if (c.duration_given) {
    return std::string(
        "--schedule (or --sweep) gives the measurement interval's length (its steps' sum): "
        "--duration cannot be given with it");
  }
  if (auto wrong = step_streams_conflict(c)) return wrong;
  return step_too_short(c);
}

double peak_schedule_rate(const std::vector<schedule_step>& steps) noexcept {
  double most = 0;
  for (const schedule_step& s : steps) most = std::max(most, s.rate_tpm);
  return most;
}

}  // namespace tpcc::cli
