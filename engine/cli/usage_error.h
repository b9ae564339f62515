#pragma once
#include <stdexcept>
#include <string>

namespace tacho::engine {

// A command-line problem; the message names the option. Exit status 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace tacho::engine
