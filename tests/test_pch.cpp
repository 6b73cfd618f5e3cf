// SPDX-License-Identifier: Apache-2.0
// The translation unit that compiles tests/CMakeLists.txt's precompiled header (shoal_test_pch).
