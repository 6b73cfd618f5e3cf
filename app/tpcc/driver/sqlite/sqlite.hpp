// app/tpcc/driver/sqlite/sqlite.hpp: the SQLite driver's entry point.
//
// libsqlite3 on dedicated threads (its calls block), awaited from coroutines. Used only by
// open.cpp: transactions see the driver interface (database.hpp), never this.
#pragma once

#include "driver/open.hpp"

namespace tpcc::driver::sqlite {

// `path` is what follows "sqlite:" in the target.
shoal::task<open_result> open(std::string path, database_options options);

}  // namespace tpcc::driver::sqlite
