// SPDX-License-Identifier: Apache-2.0
// tests/app/server_stats/several_servers_test.cpp: a run whose endpoints reached two distinct
// servers, from known figures: each server named by its first endpoint's target in the JSON, a
// section of its own in the HTML, a CSV of its own, and its own `server`-labelled samples on the
// metrics endpoint (one server keeps the unlabelled form).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "metrics/exposition.hpp"
#include "metrics/server_render.hpp"
#include "report/html_server.hpp"
#include "report/json_endpoints.hpp"
#include "report/json_server.hpp"
#include "report/server_csv.hpp"
#include "report/servers.hpp"

namespace {

using namespace tpcc;

server_stats::server_figures commits_of(double first, double second) {
  server_stats::server_figures f;
  f.source = "postgresql";
  f.figures = {{"xact_commit", server_stats::measure::counter, true}};
  f.series = {{0, 1, "warm-up", {first}, 1.0}, {1, 2, "measuring", {second}, 1.0}};
  f.window_seconds = 1;
  f.window = {second};
  return f;
}

run::endpoint_result endpoint_on(const char* target, int server) {
  run::endpoint_result e;
  e.target = target;
  e.server = server;
  return e;
}

// Three endpoints: the first and third on one server, the second on another.
run::run_result two_servers() {
  run::run_result r;
  r.server = commits_of(10, 20);
  r.more_servers = {commits_of(30, 4321)};
  r.endpoints = {endpoint_on("host=a", 0), endpoint_on("host=b", 1), endpoint_on("host=a2", 0)};
  return r;
}

TEST(SeveralServers, EachServerIsNamedByItsFirstEndpointAndListsItsEndpoints) {
  const run::run_result r = two_servers();
  const std::vector<report::named_server> all = report::servers_of(r);
  ASSERT_EQ(all.size(), 2U);
  EXPECT_EQ(all[0].name, "host=a");
  EXPECT_EQ(all[0].figures, &r.server);
  EXPECT_EQ(all[1].name, "host=b");
  EXPECT_EQ(all[1].index, 1U);
  EXPECT_EQ(report::server_endpoints(r, 0), (std::vector<std::string>{"host=a", "host=a2"}));
  const nlohmann::json more = report::detail::more_servers_json(r);
  ASSERT_EQ(more.size(), 1U);
  EXPECT_EQ(more[0]["endpoints"], nlohmann::json::array({"host=b"}));
  EXPECT_EQ(more[0]["window"]["values"]["xact_commit"].get<double>(), 4321);
  // One endpoint: no names, and the server object has no "endpoints".
  run::run_result one;
  one.server = commits_of(1, 2);
  EXPECT_EQ(report::servers_of(one).at(0).name, "");
  EXPECT_FALSE(report::detail::server_json(one.server, report::server_endpoints(one, 0))
                   .contains("endpoints"));
}

TEST(SeveralServers, HtmlHasASectionPerServerTitledWithItsName) {
  const std::string html = report::html::server_section(two_servers(), {1, 2, 2});
  EXPECT_NE(html.find("<section id=\"server\"><h2>The database's own figures: host=a</h2>"),
            std::string::npos)
      << html;
  const auto second = html.find("<section id=\"server-2\"><h2>The database's own figures: host=b");
  ASSERT_NE(second, std::string::npos) << html;
  EXPECT_NE(html.find("<td>4321</td>", second), std::string::npos) << "not the second's figures";
  EXPECT_EQ(html.find("<td>4321</td>"), html.find("<td>4321</td>", second));
  // The first endpoint's server unread (a refused connection): its section says why, untitled
  // by a name, and the other server's keeps its own.
  run::run_result refused = two_servers();
  refused.server = {};
  refused.server.not_collected = "no connection of its own: refused";
  refused.endpoints = {endpoint_on("host=a", -1), endpoint_on("host=b", 1)};
  const std::string partly = report::html::server_section(refused, {1, 2, 2});
  EXPECT_NE(partly.find("<section id=\"server\"><h2>The database's own figures</h2><p "
                        "class=\"empty\">no connection of its own: refused.</p>"),
            std::string::npos)
      << partly;
  EXPECT_NE(partly.find("<section id=\"server-2\"><h2>The database's own figures: host=b</h2>"),
            std::string::npos)
      << partly;
  run::run_result one;
  one.server = commits_of(1, 2);
  EXPECT_NE(report::html::server_section(one, {1, 2, 2})
                .find("<section id=\"server\"><h2>The database's own figures</h2>"),
            std::string::npos);
}

TEST(SeveralServers, EachOtherServerHasACsvOfItsOwn) {
  EXPECT_EQ(report::server_csv_path("out/r.csv", 0), "out/r.server.csv");
  EXPECT_EQ(report::server_csv_path("out/r.csv", 1), "out/r.server-2.csv");
  EXPECT_EQ(report::server_csv_path("r", 2), "r.server-3.csv");
}

server_stats::live_figures live_commits(double commits) {
  server_stats::live_figures f;
  f.source = "postgresql";
  f.figures = {{"xact_commit", server_stats::measure::counter, true},
               {"lock_waits", server_stats::measure::gauge, false}};
  f.values = {commits, 2};
  f.last_sample_ms = 1.5;
  f.samples = 3;
  return f;
}

std::size_t times_in(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(SeveralServers, MetricsLabelEachServersSamplesAndWriteEachFamilyOnce) {
  metrics::exposition e;
  metrics::render_servers(e, {{"host=a", live_commits(11)}, {"host=b", live_commits(22)}});
  const std::string& page = e.text();
  EXPECT_NE(page.find("shoal_tpcc_server_total{server=\"host=a\",source=\"postgresql\","
                      "figure=\"xact_commit\"} 11\n"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("shoal_tpcc_server_total{server=\"host=b\",source=\"postgresql\","
                      "figure=\"xact_commit\"} 22\n"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("shoal_tpcc_server_value{server=\"host=b\",source=\"postgresql\","
                      "figure=\"lock_waits\"} 2\n"),
            std::string::npos);
  EXPECT_NE(page.find("shoal_tpcc_server_samples_total{server=\"host=b\"} 3\n"), std::string::npos);
  EXPECT_NE(page.find("shoal_tpcc_server_sample_seconds{server=\"host=a\"} 0.0015\n"),
            std::string::npos);
  for (const char* family :
       {"shoal_tpcc_server_total", "shoal_tpcc_server_value", "shoal_tpcc_server_sample_seconds",
        "shoal_tpcc_server_samples_total"}) {
    EXPECT_EQ(times_in(page, std::string("# TYPE ") + family + " "), 1U) << family;
  }
  metrics::exposition none;
  metrics::render_servers(none, {});
  EXPECT_EQ(none.text(), "");
  metrics::exposition one;
  metrics::render_servers(one, {{"", live_commits(5)}});
  EXPECT_NE(one.text().find("shoal_tpcc_server_samples_total 3\n"), std::string::npos);
  EXPECT_EQ(one.text().find("server=\""), std::string::npos) << one.text();
}

}  // namespace
