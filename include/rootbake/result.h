// Result<T>: a value or a one-line error message (GCC 12 has no std::expected).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace rootbake {

struct Error {
    std::string message;  // one line, naming the file and the offending object
};

template <class T>
class Result {
public:
    Result(T value) : state_(std::move(value)) {}
    Result(Error error) : state_(std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(state_); }
    const T& value() const& { return std::get<0>(state_); }
    T&& value() && { return std::get<0>(std::move(state_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(state_); }

private:
    std::variant<T, Error> state_;
};

// Result<void>: success or an error.
struct Ok {};
using Status = Result<Ok>;

}  // namespace rootbake
