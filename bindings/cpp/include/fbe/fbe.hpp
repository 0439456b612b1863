// libfbe for C++ (C++17): a header-only API over the C core (fbe/fbe.h). Every rule
// (bytes, verify, limits, JSON, text, equality, errors) is the core's; these headers
// give it RAII handles, std::string_view, exceptions (fbe::error) or fbe::result<T>,
// and iterators. bindings/cpp/README.md has the whole API.
#ifndef FBE_FBE_HPP
#define FBE_FBE_HPP

#include "fbe/cpp/error.hpp"
#include "fbe/cpp/buffer.hpp"
#include "fbe/cpp/schema.hpp"
#include "fbe/cpp/value.hpp"
#include "fbe/cpp/message.hpp"
#include "fbe/cpp/view.hpp"
#include "fbe/cpp/protocol.hpp"

#endif
