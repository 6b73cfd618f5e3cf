// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/isolation.hpp: the transaction isolation level a database is opened at
// (--isolation), as a value every output records without knowing the driver.
// Thread-safety: a plain value.
#pragma once

namespace tpcc::driver {

enum class isolation { read_committed, repeatable_read, serializable };

}  // namespace tpcc::driver
