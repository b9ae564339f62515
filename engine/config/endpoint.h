#pragma once
// Where a run connects and how: address (TCP or Unix socket) and TLS settings.
// The transport (engine/net) needs only this part of a RunConfig.
#include <cstdint>
#include <string>

namespace tacho::engine {

// TLS options as redis-benchmark and memtier name them (used from issue 4 on).
struct TlsSettings {
    std::string sni;
    std::string caCert;
    std::string caCertDir;
    std::string cert;
    std::string key;
    std::string ciphers;        // TLS 1.2 and below
    std::string cipherSuites;   // TLS 1.3
    std::string protocols;      // allowed versions, e.g. "TLSv1.2,TLSv1.3" (memtier's --tls-protocols); empty = OpenSSL's defaults
    bool insecure = false;      // skip certificate verification
    // Verify the chain only, not that the certificate names the host (what
    // hiredis, redis-benchmark and memtier check): for certificates without
    // the address connected to, e.g. the peers' test suites'.
    bool skipHostnameVerify = false;
};

struct Endpoint {
    std::string host = "127.0.0.1";
    std::uint16_t port = 6379;
    std::string unixSocket;        // when set, host/port are ignored
    bool tls = false;              // not supported yet (issue 4)
    TlsSettings tlsSettings;

    std::string describe() const;  // "127.0.0.1:6379" or "unix:/path"
};

} // namespace tacho::engine
