// postgres_server.hpp: forwards to the throwaway PostgreSQL's launcher, now in
// app/tpcc/testing/postgres_server.hpp (included as "testing/postgres_server.hpp").
// Kept only for tests/app/postgres_copy_test.cpp, which another change is editing at the same
// time; delete this file once that test includes "testing/postgres_server.hpp".
#pragma once

#include "testing/postgres_server.hpp"
