//===- SharedLibrary.cpp - The source file of libwave.so ---------------===//
//
// libwave.so is every area's static library linked whole (see
// libwave/CMakeLists.txt); CMake needs a source file for a shared library
// target, and this is it. It defines nothing.
//
//===----------------------------------------------------------------------===//
