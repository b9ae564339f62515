#pragma once
// The fleet's shared secret (issue 29): the coordinator signs each order with
// it and an agent runs only orders whose signature it can check, so that
// write access to the control server is not enough to command the agents.
//
// Where it comes from: the environment of both the agents and the
// coordinator, never argv (what `ps` shows) nor a log —
//   TACHO_FLEET_KEY       the key itself, or
//   TACHO_FLEET_KEY_FILE  a file holding it (its first line), readable by its
//                         owner only (as ssh wants of a private key).
// At least kMinFleetKeyBytes bytes: `openssl rand -hex 32` makes a good one.
//
// The signature is HMAC-SHA256 over a context string and the message's
// exact bytes, as lowercase hex; verification compares in constant time.
#include <optional>
#include <string>
#include <string_view>

namespace tacho::engine {

inline constexpr const char* kFleetKeyVariable = "TACHO_FLEET_KEY";
inline constexpr const char* kFleetKeyFileVariable = "TACHO_FLEET_KEY_FILE";
inline constexpr std::size_t kMinFleetKeyBytes = 16;

class FleetKey {
public:
    // From the environment (see above). nullopt with *error empty when
    // neither variable is set (or both are empty); nullopt with *error
    // saying why when one is set but unusable (too short, unreadable, a key
    // file others may read, both set). The error never holds key bytes.
    static std::optional<FleetKey> fromEnvironment(std::string* error);

    explicit FleetKey(std::string secret);
    ~FleetKey();   // the key's bytes are wiped
    FleetKey(FleetKey&& other) noexcept;
    FleetKey& operator=(FleetKey&& other) noexcept;
    FleetKey(const FleetKey&) = delete;
    FleetKey& operator=(const FleetKey&) = delete;

    // HMAC-SHA256 of `context` + '\n' + `message`, 64 lowercase hex digits.
    // The context keeps a signature made for one kind of message from
    // passing for another.
    std::string sign(std::string_view context, std::string_view message) const;
    // Whether `mac` is sign(context, message), compared in constant time.
    bool verify(std::string_view context, std::string_view message, std::string_view mac) const;

private:
    void wipe();
    std::string m_secret;
};

} // namespace tacho::engine
