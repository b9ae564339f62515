#include "engine/net/tls_context.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/net/socket_address.h"

namespace tacho::engine {

std::string drainTlsErrors()
{
    std::string text;
    unsigned long code = 0;
    while ((code = ERR_get_error()) != 0) {
        // The reason alone reads best ("certificate verify failed"); the full
        // code string only when OpenSSL has no reason text for it.
        std::string item;
        if (const char* reason = ERR_reason_error_string(code)) {
            item = reason;
        } else {
            char buffer[256];
            ERR_error_string_n(code, buffer, sizeof buffer);
            item = buffer;
        }
        // OpenSSL's decoders often report the same reason several times.
        if (("; " + text + "; ").find("; " + item + "; ") != std::string::npos)
            continue;
        if (!text.empty())
            text += "; ";
        text += item;
    }
    return text;
}

namespace {

// Why a file cannot be used, or empty when it is a readable regular file.
// Checked before OpenSSL sees the path, whose own message ("system lib")
// does not say what is wrong.
std::string unreadable(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errnoText(errno);
    struct stat info {};
    const bool ok = ::fstat(fd, &info) == 0;
    const int statErrno = errno;
    ::close(fd);
    if (!ok)
        return errnoText(statErrno);
    if (S_ISDIR(info.st_mode))
        return "it is a directory";
    return {};
}

std::string withReason(std::string message)
{
    const std::string reason = drainTlsErrors();
    if (!reason.empty())
        message += ": " + reason;
    return message;
}

bool fail(std::string* error, std::string message)
{
    if (error)
        *error = std::move(message);
    ERR_clear_error();
    return false;
}

// Encrypted keys would make OpenSSL prompt on the terminal; a benchmark must
// never wait for input, so every passphrase request gets "none".
int noPassphrase(char*, int, int, void*) { return 0; }

// "TLSv1.2,TLSv1.3" → lowest and highest version. Gaps are refused: an
// OpenSSL client offers one contiguous range of versions.
bool parseProtocols(const std::string& list, int& minVersion, int& maxVersion, std::string* error)
{
    static constexpr struct {
        const char* name;
        int version;
    } kVersions[] = {
        {"tlsv1", TLS1_VERSION},     {"tlsv1.0", TLS1_VERSION},   {"tlsv1.1", TLS1_1_VERSION},
        {"tlsv1.2", TLS1_2_VERSION}, {"tlsv1.3", TLS1_3_VERSION},
    };
    static constexpr int kOrder[] = {TLS1_VERSION, TLS1_1_VERSION, TLS1_2_VERSION, TLS1_3_VERSION};
    static constexpr const char* kOrderNames[] = {"TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"};

    bool seen[4] = {};
    std::string token;
    auto take = [&]() -> bool {
        if (token.empty())
            return true;
        std::string lower;
        for (char c : token)
            lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (const auto& v : kVersions) {
            if (lower == v.name) {
                for (int i = 0; i < 4; ++i)
                    if (kOrder[i] == v.version)
                        seen[i] = true;
                token.clear();
                return true;
            }
        }
        return fail(error, "unknown TLS protocol '" + token + "' in '" + list
                               + "' (use TLSv1, TLSv1.1, TLSv1.2, TLSv1.3, separated by commas)");
    };
    for (char c : list) {
        if (c == ',' || c == ' ' || c == ':' || c == ';') {
            if (!take())
                return false;
        } else {
            token += c;
        }
    }
    if (!take())
        return false;

    int low = -1;
    int high = -1;
    for (int i = 0; i < 4; ++i) {
        if (seen[i]) {
            if (low < 0)
                low = i;
            high = i;
        }
    }
    if (low < 0)
        return fail(error, "no TLS protocol named in '" + list + "'");
    std::string missing;
    for (int i = low; i <= high; ++i) {
        if (!seen[i])
            missing += std::string(missing.empty() ? "" : ", ") + kOrderNames[i];
    }
    if (!missing.empty())
        return fail(error, "TLS protocols '" + list + "' leave out " + missing
                               + " in between: a client can only allow a contiguous range of versions");
    minVersion = kOrder[low];
    maxVersion = kOrder[high];
    return true;
}

struct BioCloser {
    void operator()(BIO* bio) const { BIO_free(bio); }
};
struct KeyFree {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};

// Which of the usual mistakes a key file that OpenSSL cannot read as a private key makes;
// OpenSSL's decoder reasons ("unsupported") do not say.
std::string keyFileProblem(const std::string& path)
{
    std::string head(4096, '\0');
    if (std::FILE* file = std::fopen(path.c_str(), "rb")) {
        head.resize(std::fread(head.data(), 1, head.size(), file));
        std::fclose(file);
    }
    std::string why = "is not a PEM private key";
    if (head.find("-----BEGIN") == std::string::npos)
        why += " (no '-----BEGIN ... PRIVATE KEY-----' line)";
    else if (head.find("ENCRYPTED") != std::string::npos)
        why = "is encrypted, and a benchmark cannot ask for its passphrase (decrypt it first: "
              "openssl pkey -in KEY -out PLAIN_KEY)";
    return why;
}

// Trust: the CA file and/or directory given, else the system's store.
bool loadTrust(SSL_CTX* ctx, const TlsSettings& settings, std::string* error)
{
    if (!settings.caCert.empty()) {
        if (const std::string why = unreadable(settings.caCert); !why.empty()) {
            fail(error, "CA certificate file '" + settings.caCert + "' cannot be read: " + why);
            return false;
        }
        if (SSL_CTX_load_verify_file(ctx, settings.caCert.c_str()) != 1) {
            fail(error, withReason("CA certificate file '" + settings.caCert + "' holds no usable PEM certificate"));
            return false;
        }
    }
    if (!settings.caCertDir.empty()) {
        struct stat info {};
        if (::stat(settings.caCertDir.c_str(), &info) != 0) {
            fail(error, "CA certificate directory '" + settings.caCertDir + "' cannot be read: " + errnoText(errno));
            return false;
        }
        if (!S_ISDIR(info.st_mode)) {
            fail(error, "CA certificate directory '" + settings.caCertDir + "' is not a directory");
            return false;
        }
        if (SSL_CTX_load_verify_dir(ctx, settings.caCertDir.c_str()) != 1) {
            fail(error, withReason("CA certificate directory '" + settings.caCertDir + "' cannot be used"));
            return false;
        }
    }
    if (settings.caCert.empty() && settings.caCertDir.empty() && SSL_CTX_set_default_verify_paths(ctx) != 1) {
        fail(error, withReason("cannot load the system's trusted CA certificates"));
        return false;
    }
    return true;
}

// Client certificate and key (mutual TLS). The key is read on its own
// first so that "not a key" and "not this certificate's key" differ.
bool loadClientIdentity(SSL_CTX* ctx, const TlsSettings& settings, std::string* error)
{
    if (settings.cert.empty() != settings.key.empty()) {
        fail(error, settings.cert.empty()
                        ? "a client key (--key '" + settings.key + "') needs its certificate (--cert)"
                        : "a client certificate (--cert '" + settings.cert + "') needs its key (--key)");
        return false;
    }
    if (!settings.cert.empty()) {
        if (const std::string why = unreadable(settings.cert); !why.empty()) {
            fail(error, "client certificate file '" + settings.cert + "' cannot be read: " + why);
            return false;
        }
        if (const std::string why = unreadable(settings.key); !why.empty()) {
            fail(error, "client key file '" + settings.key + "' cannot be read: " + why);
            return false;
        }
        if (SSL_CTX_use_certificate_chain_file(ctx, settings.cert.c_str()) != 1) {
            fail(error, withReason("client certificate file '" + settings.cert + "' is not a PEM certificate"));
            return false;
        }
        std::unique_ptr<EVP_PKEY, KeyFree> key;
        {
            std::unique_ptr<BIO, BioCloser> bio(BIO_new_file(settings.key.c_str(), "r"));
            if (bio)
                key.reset(PEM_read_bio_PrivateKey(bio.get(), nullptr, &noPassphrase, nullptr));
        }
        if (!key) {
            fail(error, withReason("client key file '" + settings.key + "' " + keyFileProblem(settings.key)));
            return false;
        }
        if (X509_check_private_key(SSL_CTX_get0_certificate(ctx), key.get()) != 1) {
            fail(error, withReason("client key file '" + settings.key + "' does not match the certificate in '"
                                   + settings.cert + "'"));
            return false;
        }
        if (SSL_CTX_use_PrivateKey(ctx, key.get()) != 1) {
            fail(error, withReason("client key file '" + settings.key + "' cannot be used"));
            return false;
        }
    }
    return true;
}

// The TLS 1.2 cipher list, the TLS 1.3 ciphersuites and the protocol versions, when given.
bool applyProtocolChoices(SSL_CTX* ctx, const TlsSettings& settings, std::string* error)
{
    if (!settings.ciphers.empty() && SSL_CTX_set_cipher_list(ctx, settings.ciphers.c_str()) != 1) {
        fail(error, withReason("TLS 1.2 cipher list '" + settings.ciphers + "' was rejected by OpenSSL"));
        return false;
    }
    if (!settings.cipherSuites.empty() && SSL_CTX_set_ciphersuites(ctx, settings.cipherSuites.c_str()) != 1) {
        fail(error, withReason("TLS 1.3 ciphersuites '" + settings.cipherSuites + "' were rejected by OpenSSL"));
        return false;
    }
    if (!settings.protocols.empty()) {
        int minVersion = 0;
        int maxVersion = 0;
        if (!parseProtocols(settings.protocols, minVersion, maxVersion, error))
            return false;
        if (SSL_CTX_set_min_proto_version(ctx, minVersion) != 1
            || SSL_CTX_set_max_proto_version(ctx, maxVersion) != 1) {
            fail(error, withReason("TLS protocols '" + settings.protocols + "' were rejected by OpenSSL"));
            return false;
        }
    }
    return true;
}

} // namespace

std::shared_ptr<TlsContext> TlsContext::create(const TlsSettings& settings, std::string* error,
                                               BufferPolicy buffers)
{
    // make_shared cannot reach the private constructor.
    std::shared_ptr<TlsContext> context(new TlsContext());
    context->m_settings = settings;
    ERR_clear_error();

    SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) {
        fail(error, withReason("cannot create a TLS context"));
        return nullptr;
    }
    context->m_ctx = ctx;   // freed by the destructor from here on
    SSL_CTX_set_default_passwd_cb(ctx, &noPassphrase);

    if (!loadTrust(ctx, settings, error))
        return nullptr;
    SSL_CTX_set_verify(ctx, settings.insecure ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, nullptr);

    if (!loadClientIdentity(ctx, settings, error) || !applyProtocolChoices(ctx, settings, error))
        return nullptr;

    // Partial writes: SSL_write returns once a record is out, like send(), so
    // a large buffer does not have to go out in one call. Moving buffer: the
    // caller's output buffer may be reallocated between a WANT_WRITE and the
    // retry. Release buffers: an idle connection gives back its ~33 KB of
    // record buffers, which matters at 10,000 connections.
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (buffers == BufferPolicy::ReleaseWhenIdle)
        SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
    // Read ahead: one recv() takes as many records as have arrived, instead of
    // one recv() for each record header and another for its body.
    SSL_CTX_set_read_ahead(ctx, 1);

    // Resumption: OpenSSL's client cache never stores anything by itself; we
    // keep the latest session via the callback (NO_INTERNAL_STORE avoids a
    // second, unused copy in the context's own cache).
    SSL_CTX_set_app_data(ctx, context.get());
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
    SSL_CTX_sess_set_new_cb(ctx, &TlsContext::onNewSession);
    SSL_CTX_set_cert_cb(ctx, &TlsContext::onCertificateRequest, nullptr);

    ERR_clear_error();
    return context;
}

TlsContext::~TlsContext()
{
    {
        std::lock_guard lock(m_sessionMutex);
        m_session.reset();
    }
    if (m_ctx)
        SSL_CTX_free(m_ctx);
}

namespace {

// Per-SSL slot for "the server asked for a client certificate".
int certificateRequestIndex()
{
    static const int index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
    return index;
}

} // namespace

int TlsContext::onCertificateRequest(SSL* ssl, void*)
{
    // A client's certificate callback runs only when the server requests one.
    SSL_set_ex_data(ssl, certificateRequestIndex(), reinterpret_cast<void*>(1));
    return 1;
}

bool TlsContext::certificateRequested(const SSL* ssl)
{
    return ssl && SSL_get_ex_data(ssl, certificateRequestIndex()) != nullptr;
}

int TlsContext::onNewSession(SSL* ssl, SSL_SESSION* session)
{
    auto* self = static_cast<TlsContext*>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
    if (!self || SSL_SESSION_is_resumable(session) != 1)
        return 0;   // OpenSSL keeps its reference
    self->storeSession(session);
    return 1;       // the reference is ours now
}

void TlsContext::storeSession(SSL_SESSION* session)
{
    // Built outside the lock; the old session is released outside it too.
    std::shared_ptr<SSL_SESSION> fresh(session, [](SSL_SESSION* s) { SSL_SESSION_free(s); });
    std::lock_guard lock(m_sessionMutex);
    m_session.swap(fresh);
    ++m_sessionsReceived;
}

std::shared_ptr<SSL_SESSION> TlsContext::latestSession() const
{
    std::lock_guard lock(m_sessionMutex);
    return m_session;
}

void TlsContext::forgetSession()
{
    std::shared_ptr<SSL_SESSION> old;
    std::lock_guard lock(m_sessionMutex);
    m_session.swap(old);
}

unsigned long TlsContext::sessionsReceived() const
{
    std::lock_guard lock(m_sessionMutex);
    return m_sessionsReceived;
}

} // namespace tacho::engine
