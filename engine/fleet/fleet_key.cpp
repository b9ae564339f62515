#include "engine/fleet/fleet_key.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

namespace tacho::engine {

namespace {

// A key file is one short line; anything longer is not a key file.
constexpr std::size_t kMaxKeyFileBytes = 4096;

std::string variable(const char* name)
{
    const char* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

// The first line of `path`, when only its owner may read it.
std::optional<std::string> readKeyFile(const std::string& path, std::string* error)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
        *error = std::string(kFleetKeyFileVariable) + ": " + path + " is not a readable file";
        return std::nullopt;
    }
    if (info.st_mode & (S_IRWXG | S_IRWXO)) {
        *error = std::string(kFleetKeyFileVariable) + ": " + path
            + " may be read by other users; make it readable by its owner only (chmod 600)";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    std::string text(kMaxKeyFileBytes + 1, '\0');
    in.read(text.data(), std::streamsize(text.size()));
    text.resize(std::size_t(in.gcount()));
    if (!in.eof() && !in.good()) {
        *error = std::string(kFleetKeyFileVariable) + ": cannot read " + path;
        return std::nullopt;
    }
    if (text.size() > kMaxKeyFileBytes) {
        *error = std::string(kFleetKeyFileVariable) + ": " + path + " is larger than a key file is";
        return std::nullopt;
    }
    const std::size_t end = text.find_first_of("\r\n");
    std::string key = text.substr(0, end);
    OPENSSL_cleanse(text.data(), text.size());
    return key;
}

std::string hex(const unsigned char* bytes, std::size_t size)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        out.push_back(kDigits[bytes[i] >> 4]);
        out.push_back(kDigits[bytes[i] & 0xf]);
    }
    return out;
}

} // namespace

std::optional<FleetKey> FleetKey::fromEnvironment(std::string* error)
{
    error->clear();
    std::string key = variable(kFleetKeyVariable);
    const std::string path = variable(kFleetKeyFileVariable);
    if (!key.empty() && !path.empty()) {
        *error = std::string("both ") + kFleetKeyVariable + " and " + kFleetKeyFileVariable
            + " are set; give the fleet key one way";
        return std::nullopt;
    }
    const char* from = kFleetKeyVariable;
    if (!path.empty()) {
        auto read = readKeyFile(path, error);
        if (!read)
            return std::nullopt;
        key = std::move(*read);
        from = kFleetKeyFileVariable;
    }
    if (key.empty() && path.empty())
        return std::nullopt;
    if (key.size() < kMinFleetKeyBytes) {
        OPENSSL_cleanse(key.data(), key.size());
        *error = std::string(from) + ": the fleet key has fewer than " + std::to_string(kMinFleetKeyBytes)
            + " bytes (make one with: openssl rand -hex 32)";
        return std::nullopt;
    }
    return FleetKey(std::move(key));
}

FleetKey::FleetKey(std::string secret) : m_secret(std::move(secret)) {}

FleetKey::~FleetKey() { wipe(); }

FleetKey::FleetKey(FleetKey&& other) noexcept : m_secret(std::move(other.m_secret))
{
    other.wipe();
}

FleetKey& FleetKey::operator=(FleetKey&& other) noexcept
{
    if (this != &other) {
        wipe();
        m_secret = std::move(other.m_secret);
        other.wipe();
    }
    return *this;
}

void FleetKey::wipe()
{
    OPENSSL_cleanse(m_secret.data(), m_secret.size());
    m_secret.clear();
}

std::string FleetKey::sign(std::string_view context, std::string_view message) const
{
    std::string input;
    input.reserve(context.size() + 1 + message.size());
    input.append(context).push_back('\n');
    input.append(message);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    const bool ok = HMAC(EVP_sha256(), m_secret.data(), int(m_secret.size()),
                         reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac, &size)
        != nullptr;
    // HMAC fails only without memory: an empty signature never verifies.
    return ok ? hex(mac, size) : std::string();
}

bool FleetKey::verify(std::string_view context, std::string_view message, std::string_view mac) const
{
    const std::string expected = sign(context, message);
    return !expected.empty() && mac.size() == expected.size()
        && CRYPTO_memcmp(expected.data(), mac.data(), expected.size()) == 0;
}

} // namespace tacho::engine
