// SPDX-License-Identifier: Apache-2.0
// tests/app/run/endpoint_routes_test.cpp: the endpoints' warehouse ranges (run/endpoints.hpp):
// range k of n of this process's warehouses, shifted to a shard's first, each warehouse found
// on exactly one route; too few warehouses refused.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "run/endpoints.hpp"

namespace {

using tpcc::run::route_endpoints;
using tpcc::run::warehouse_range;

std::vector<tpcc::driver::database*> fake_endpoints(std::size_t n) {
  // Never dereferenced by route_endpoints: distinct addresses stand for the databases.
  static std::array<char, 8> places{};
  std::vector<tpcc::driver::database*> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(reinterpret_cast<tpcc::driver::database*>(&places[i]));  // NOLINT: a token
  }
  return out;
}

TEST(endpoint_routes, EachEndpointTakesAContiguousRangeOfTheShardsWarehouses) {
  const auto dbs = fake_endpoints(2);
  const auto set = route_endpoints(dbs, warehouse_range{4, 6}, {}, {});
  ASSERT_EQ(set.routes.size(), 2U);
  EXPECT_EQ(set.routes[0].first, 4);
  EXPECT_EQ(set.routes[0].last, 4);
  EXPECT_EQ(set.routes[1].first, 5);
  EXPECT_EQ(set.routes[1].last, 6);
  for (std::int64_t w = 4; w <= 6; ++w) {
    const auto* r = tpcc::terminal::route_of(set.routes, w);
    ASSERT_NE(r, nullptr) << w;
    EXPECT_EQ(r->db, dbs[w == 4 ? 0 : 1]) << w;
    EXPECT_NE(r->recorder, nullptr);
  }
  EXPECT_EQ(tpcc::terminal::route_of(set.routes, 3), nullptr);
  EXPECT_EQ(tpcc::terminal::route_of(set.routes, 7), nullptr);
}

TEST(endpoint_routes, OneEndpointHasNoRoutes) {
  EXPECT_TRUE(route_endpoints(fake_endpoints(1), warehouse_range{1, 10}, {}, {}).routes.empty());
}

TEST(endpoint_routes, FewerWarehousesThanEndpointsIsRefused) {
  EXPECT_FALSE(tpcc::run::endpoints_refused(3, warehouse_range{1, 3}).has_value());
  const auto why = tpcc::run::endpoints_refused(3, warehouse_range{5, 6});
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(*why,
            "3 endpoints (--db) but 2 warehouses to run here: each endpoint needs at least one "
            "(give fewer --db or more warehouses)");
}

}  // namespace
