#include "engine/net/tls_session.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <sys/socket.h>
#include <utility>

#include "engine/net/peer_bytes.h"
#include "engine/net/socket_address.h"
#include "engine/resp/printable_text.h"

namespace tacho::engine {

namespace {

constexpr int kMaxChunk = INT_MAX;   // SSL_read/SSL_write take an int

bool isIpLiteral(const std::string& name)
{
    unsigned char address[sizeof(in6_addr)];
    return inet_pton(AF_INET, name.c_str(), address) == 1 || inet_pton(AF_INET6, name.c_str(), address) == 1;
}

// "[::1]" → "::1": the brackets belong to URIs, not to the address.
std::string withoutBrackets(const std::string& name)
{
    if (name.size() > 2 && name.front() == '[' && name.back() == ']')
        return name.substr(1, name.size() - 2);
    return name;
}

struct BioFree {
    void operator()(BIO* bio) const { BIO_free(bio); }
};

std::string bioText(BIO* bio)
{
    char* data = nullptr;
    const long length = BIO_get_mem_data(bio, &data);
    return length > 0 ? std::string(data, static_cast<std::size_t>(length)) : std::string();
}

std::string nameText(const X509_NAME* name)
{
    std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
    if (!bio || !name)
        return {};
    X509_NAME_print_ex(bio.get(), name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
    return printable(bioText(bio.get()));   // names are the certificate maker's text
}

std::string timeText(const ASN1_TIME* time)
{
    std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
    if (!bio || !time)
        return {};
    ASN1_TIME_print(bio.get(), time);
    return bioText(bio.get());
}

// "DNS:localhost, IP:127.0.0.1", or "" when the certificate has no SAN.
std::string alternativeNames(X509* cert)
{
    auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
    if (!names)
        return {};
    std::string text;
    for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i) {
        const GENERAL_NAME* name = sk_GENERAL_NAME_value(names, i);
        std::string item;
        if (name->type == GEN_DNS) {
            const ASN1_STRING* dns = name->d.dNSName;
            item = "DNS:" + printable(std::string_view(reinterpret_cast<const char*>(ASN1_STRING_get0_data(dns)),
                                                       static_cast<std::size_t>(ASN1_STRING_length(dns))));
        } else if (name->type == GEN_IPADD) {
            const ASN1_OCTET_STRING* ip = name->d.iPAddress;
            char buffer[INET6_ADDRSTRLEN] = {};
            const int family = ASN1_STRING_length(ip) == 4 ? AF_INET : AF_INET6;
            if (ASN1_STRING_length(ip) == 4 || ASN1_STRING_length(ip) == 16)
                inet_ntop(family, ASN1_STRING_get0_data(ip), buffer, sizeof buffer);
            item = std::string("IP:") + buffer;
        }
        if (!item.empty())
            text += (text.empty() ? "" : ", ") + item;
    }
    GENERAL_NAMES_free(names);
    return text;
}

// A socket BIO that sends with MSG_NOSIGNAL. OpenSSL's own socket BIO uses
// write(), which raises SIGPIPE when the server has gone (OpenSSL writes an
// alert on errors, even inside SSL_read); the engine must not depend on the
// process ignoring SIGPIPE. The BIO's data is a SocketBio (the fd is never
// closed here), which also keeps the first bytes received: a handshake that
// fails on them can tell a plain-text port that answered (issue 16).
struct SocketBio {
    int fd = -1;
    std::uint8_t firstCount = 0;
    char first[8] = {};
};

SocketBio& socketBio(BIO* bio)
{
    return *static_cast<SocketBio*>(BIO_get_data(bio));
}

int socketWrite(BIO* bio, const char* data, int size)
{
    const int fd = socketBio(bio).fd;
    BIO_clear_retry_flags(bio);
    const ssize_t n = ::send(fd, data, static_cast<std::size_t>(size), MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        BIO_set_retry_write(bio);
    return static_cast<int>(n);
}

int socketRead(BIO* bio, char* data, int size)
{
    SocketBio& state = socketBio(bio);
    BIO_clear_retry_flags(bio);
    const ssize_t n = ::recv(state.fd, data, static_cast<std::size_t>(size), 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        BIO_set_retry_read(bio);
    if (n > 0 && state.firstCount < sizeof state.first) {   // the first read or two only
        const auto take = std::min<std::size_t>(sizeof state.first - state.firstCount, static_cast<std::size_t>(n));
        std::memcpy(state.first + state.firstCount, data, take);
        state.firstCount = static_cast<std::uint8_t>(state.firstCount + take);
    }
    return static_cast<int>(n);
}

int socketDestroy(BIO* bio)
{
    delete static_cast<SocketBio*>(BIO_get_data(bio));
    BIO_set_data(bio, nullptr);
    return 1;
}

long socketControl(BIO*, int command, long, void*)
{
    // Writes go straight to the socket: nothing to flush, nothing pending.
    return command == BIO_CTRL_FLUSH || command == BIO_CTRL_DUP ? 1 : 0;
}

const BIO_METHOD* socketMethod()
{
    static BIO_METHOD* const method = [] {
        BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR,
                                     "tacho socket");
        if (m) {
            BIO_meth_set_write(m, &socketWrite);
            BIO_meth_set_read(m, &socketRead);
            BIO_meth_set_ctrl(m, &socketControl);
            BIO_meth_set_destroy(m, &socketDestroy);
        }
        return m;
    }();
    return method;
}

bool isOneOf(int reason, std::initializer_list<int> reasons)
{
    for (int r : reasons)
        if (r == reason)
            return true;
    return false;
}

} // namespace

TlsSession::TlsSession(TlsContext& context, int fd, const std::string& serverName)
    : m_context(context.shared_from_this())
{
    ERR_clear_error();
    m_ssl = SSL_new(context.native());
    BIO* bio = socketMethod() ? BIO_new(socketMethod()) : nullptr;
    if (!m_ssl || !bio) {
        m_failure = "cannot create a TLS session: " + drainTlsErrors();
        BIO_free(bio);
        release();
        return;
    }
    auto* state = new SocketBio;
    state->fd = fd;
    BIO_set_data(bio, state);
    BIO_set_init(bio, 1);
    SSL_set_bio(m_ssl, bio, bio);   // one reference, for both directions
    SSL_set_connect_state(m_ssl);

    const TlsSettings& settings = context.settings();
    const std::string name = withoutBrackets(settings.sni.empty() ? serverName : settings.sni);
    const bool ip = isIpLiteral(name);
    // RFC 6066: SNI carries host names only, never addresses.
    if (!name.empty() && !ip)
        SSL_set_tlsext_host_name(m_ssl, name.c_str());
    if (context.verifies() && !settings.skipHostnameVerify && !name.empty()) {
        if (ip) {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(m_ssl), name.c_str());
        } else {
            SSL_set_hostflags(m_ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
            SSL_set1_host(m_ssl, name.c_str());
        }
    }
    if (const auto session = context.latestSession())
        SSL_set_session(m_ssl, session.get());   // takes its own reference
    ERR_clear_error();
}

TlsSession::~TlsSession() { release(); }

void TlsSession::release()
{
    if (!m_ssl)
        return;
    // SSL_free() marks the session non-resumable unless close_notify was
    // sent. Connections end without it all the time here (the server closes,
    // as Redis does; -k 0 drops them): that must not cost the session that
    // other connections resume with. Fatal TLS errors have already
    // invalidated their session inside OpenSSL.
    SSL_set_shutdown(m_ssl, SSL_get_shutdown(m_ssl) | SSL_SENT_SHUTDOWN);
    SSL_free(m_ssl);
    m_ssl = nullptr;
}

TlsSession::TlsSession(TlsSession&& other) noexcept
    : m_context(std::move(other.m_context))
    , m_ssl(std::exchange(other.m_ssl, nullptr))
    , m_failure(std::move(other.m_failure))
    , m_closedUnanswered(other.m_closedUnanswered)
{
}

TlsSession& TlsSession::operator=(TlsSession&& other) noexcept
{
    if (this != &other) {
        release();
        m_ssl = std::exchange(other.m_ssl, nullptr);
        m_context = std::move(other.m_context);   // after SSL_free: the SSL held the context's SSL_CTX
        m_failure = std::move(other.m_failure);
        m_closedUnanswered = other.m_closedUnanswered;
    }
    return *this;
}

TlsSession::Status TlsSession::handshake()
{
    if (!m_ssl)
        return Status::Failed;
    ERR_clear_error();
    const int result = SSL_do_handshake(m_ssl);
    return result == 1 ? Status::Ok : classify(result);
}

bool TlsSession::handshakeDone() const
{
    return m_ssl && SSL_is_init_finished(m_ssl);
}

long TlsSession::read(char* data, std::size_t size, Status& status)
{
    if (!m_ssl) {
        status = Status::Failed;
        return 0;
    }
    // SSL_get_error() trusts the thread's error queue: it must hold nothing
    // from before this call.
    ERR_clear_error();
    const int n = SSL_read(m_ssl, data, size > std::size_t(kMaxChunk) ? kMaxChunk : static_cast<int>(size));
    if (n > 0) {
        status = Status::Ok;
        return n;
    }
    status = classify(n);
    return 0;
}

long TlsSession::write(const char* data, std::size_t size, Status& status)
{
    if (!m_ssl) {
        status = Status::Failed;
        return 0;
    }
    if (size == 0) {
        status = Status::Ok;
        return 0;
    }
    ERR_clear_error();
    const int n = SSL_write(m_ssl, data, size > std::size_t(kMaxChunk) ? kMaxChunk : static_cast<int>(size));
    if (n > 0) {
        status = Status::Ok;
        return n;
    }
    status = classify(n);
    return 0;
}

bool TlsSession::pending() const
{
    return m_ssl && SSL_has_pending(m_ssl) == 1;
}

void TlsSession::shutdown()
{
    if (!m_ssl || !SSL_is_init_finished(m_ssl))
        return;
    ERR_clear_error();
    // Not waiting for the server's close_notify: this side is done.
    SSL_set_quiet_shutdown(m_ssl, 0);
    SSL_shutdown(m_ssl);
    ERR_clear_error();
}

bool TlsSession::resumed() const
{
    return m_ssl && SSL_session_reused(m_ssl) == 1;
}

bool TlsSession::certificateRequested() const
{
    return TlsContext::certificateRequested(m_ssl);
}

std::string TlsSession::protocol() const
{
    return m_ssl ? SSL_get_version(m_ssl) : "";
}

std::string TlsSession::cipher() const
{
    const char* name = m_ssl ? SSL_get_cipher_name(m_ssl) : nullptr;
    return name ? name : "";
}

std::string_view TlsSession::firstBytesReceived() const
{
    BIO* bio = m_ssl ? SSL_get_rbio(m_ssl) : nullptr;
    if (!bio || !BIO_get_data(bio))
        return {};
    const SocketBio& state = socketBio(bio);
    return std::string_view(state.first, state.firstCount);
}

unsigned long long TlsSession::bytesReceived() const
{
    const BIO* bio = m_ssl ? SSL_get_rbio(m_ssl) : nullptr;
    return bio ? BIO_number_read(const_cast<BIO*>(bio)) : 0;
}

// Turns a failed SSL call into a status; on Closed/Failed sets m_failure and
// leaves the thread's error queue empty.
TlsSession::Status TlsSession::classify(int result)
{
    const int savedErrno = errno;
    const int error = SSL_get_error(m_ssl, result);
    switch (error) {
    case SSL_ERROR_WANT_READ:
        return Status::WantRead;
    case SSL_ERROR_WANT_WRITE:
        return Status::WantWrite;
    case SSL_ERROR_ZERO_RETURN:
        m_failure = "the server ended the TLS session (close_notify)";
        ERR_clear_error();
        return Status::Closed;
    default:
        break;
    }

    const bool established = SSL_is_init_finished(m_ssl);
    const unsigned long first = ERR_peek_error();
    const std::string reasons = drainTlsErrors();
    // Plain text where a handshake record belongs: say so, not "wrong version number".
    if (!established && looksLikeResp(firstBytesReceived())) {
        m_failure = std::string(kSpeaksPlainText) + (reasons.empty() ? "" : " (" + reasons + ")");
        return Status::Failed;
    }
    if (error == SSL_ERROR_SYSCALL && first == 0) {
        // The socket failed, or ended without a word from TLS.
        if (savedErrno == 0 || result == 0) {
            if (established) {
                m_failure = "the server closed the connection";
                return Status::Closed;
            }
            m_closedUnanswered = bytesReceived() == 0;
            m_failure = bytesReceived() == 0
                            ? "the server closed the connection without answering the TLS handshake "
                              "(wrong port, or TLS not enabled?)"
                            : "the server closed the connection during the TLS handshake";
            return Status::Failed;
        }
        if (established) {
            m_failure = "lost the connection: " + errnoText(savedErrno);
            return Status::Closed;
        }
        m_closedUnanswered = bytesReceived() == 0;
        m_failure = (bytesReceived() == 0 ? "the server closed the connection without answering the TLS handshake "
                                            "(wrong port, or TLS not enabled?): "
                                          : "the server closed the connection during the TLS handshake: ")
                    + errnoText(savedErrno);
        return Status::Failed;
    }
    if (ERR_GET_LIB(first) == ERR_LIB_SSL && ERR_GET_REASON(first) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
        // The server closed the socket without close_notify (Redis does so).
        if (established) {
            m_failure = "the server closed the connection (" + reasons + ")";
            return Status::Closed;
        }
        m_closedUnanswered = bytesReceived() == 0;
        m_failure = (bytesReceived() == 0 ? "the server closed the connection without answering the TLS "
                                            "handshake (wrong port, or TLS not enabled?): "
                                          : "the server closed the connection during the TLS handshake: ")
                    + reasons;
        return Status::Failed;
    }
    m_failure = describeError(first, reasons);
    return Status::Failed;
}

std::string TlsSession::describeError(unsigned long code, const std::string& reasons) const
{
    const int reason = ERR_GET_LIB(code) == ERR_LIB_SSL ? ERR_GET_REASON(code) : 0;
    const long verifyResult = SSL_get_verify_result(m_ssl);
    if (reason == SSL_R_CERTIFICATE_VERIFY_FAILED && verifyResult != X509_V_OK)
        return describeVerifyFailure(verifyResult, reasons);

    // Alerts from the server about our client certificate.
    if (reason == SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED)
        return "the server requires a client certificate (give --cert and --key): " + reasons;
    if (isOneOf(reason, {SSL_R_TLSV1_ALERT_UNKNOWN_CA, SSL_R_SSLV3_ALERT_BAD_CERTIFICATE,
                         SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN, SSL_R_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE,
                         SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED, SSL_R_SSLV3_ALERT_CERTIFICATE_REVOKED,
                         SSL_R_TLSV1_ALERT_ACCESS_DENIED, SSL_R_TLSV1_ALERT_DECRYPT_ERROR})) {
        const bool sent = SSL_get_certificate(m_ssl) != nullptr;
        return std::string(sent ? "the server rejected the client certificate: "
                                : "the server rejected the connection (it may require a client certificate): ")
               + reasons;
    }
    if (reason == SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE) {
        const bool sent = SSL_get_certificate(m_ssl) != nullptr;
        return std::string("the server refused the handshake (no cipher in common")
               + (sent ? "" : ", or it requires a client certificate") + "): " + reasons;
    }
    if (isOneOf(reason, {SSL_R_TLSV1_ALERT_PROTOCOL_VERSION, SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_VERSION_TOO_LOW,
                         SSL_R_VERSION_TOO_HIGH, SSL_R_NO_PROTOCOLS_AVAILABLE, SSL_R_WRONG_SSL_VERSION}))
        return "protocol version mismatch (the server and --tls-protocols have no TLS version in common): "
               + reasons;
    if (isOneOf(reason, {SSL_R_NO_CIPHERS_AVAILABLE, SSL_R_NO_SHARED_CIPHER}))
        return "no cipher in common with the server (see --tls-ciphers / --tls-ciphersuites): " + reasons;
    if (!SSL_is_init_finished(m_ssl)
        && isOneOf(reason, {SSL_R_WRONG_VERSION_NUMBER, SSL_R_PACKET_LENGTH_TOO_LONG, SSL_R_UNKNOWN_PROTOCOL,
                            SSL_R_RECORD_LENGTH_MISMATCH, SSL_R_UNEXPECTED_MESSAGE, SSL_R_HTTPS_PROXY_REQUEST,
                            SSL_R_HTTP_REQUEST}))
        return "the server did not answer with TLS (wrong port, or TLS not enabled?): " + reasons;
    return "TLS error: " + (reasons.empty() ? std::string("unknown") : reasons);
}

std::string TlsSession::describeVerifyFailure(long verifyResult, const std::string& reasons) const
{
    // "certificate verify failed: unable to get local issuer certificate"
    std::string text = reasons + ": " + X509_verify_cert_error_string(verifyResult);
    // The leaf certificate: OpenSSL keeps the chain it received even when
    // verification failed, but names no peer certificate then.
    X509* cert = SSL_get0_peer_certificate(m_ssl);
    if (!cert) {
        STACK_OF(X509)* chain = SSL_get_peer_cert_chain(m_ssl);
        if (chain && sk_X509_num(chain) > 0)
            cert = sk_X509_value(chain, 0);
    }
    switch (verifyResult) {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_CERT_UNTRUSTED:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        text += " (unknown CA: the server's certificate is not signed by a CA from --cacert / --cacertdir "
                "or the system's store";
        if (cert)
            text += "; its issuer is " + nameText(X509_get_issuer_name(cert));
        text += ")";
        break;
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH: {
        X509_VERIFY_PARAM* param = SSL_get0_param(m_ssl);
        std::string expected;
        if (const char* host = X509_VERIFY_PARAM_get0_host(param, 0)) {
            expected = host;
        } else if (char* ip = X509_VERIFY_PARAM_get1_ip_asc(param)) {
            expected = ip;
            OPENSSL_free(ip);
        }
        text += " (the server's certificate is not for '" + printable(expected) + "'";
        if (cert) {
            const std::string names = alternativeNames(cert);
            text += names.empty() ? "; its subject is " + nameText(X509_get_subject_name(cert))
                                  : "; it names " + names;
        }
        text += "; connect by a name it holds, or --tls-skip-hostname-verify to check its chain only)";
        break;
    }
    case X509_V_ERR_CERT_HAS_EXPIRED:
        text += " (expired certificate";
        if (cert)
            text += ": valid until " + timeText(X509_get0_notAfter(cert));
        text += ")";
        break;
    case X509_V_ERR_CERT_NOT_YET_VALID:
        text += " (certificate not yet valid";
        if (cert)
            text += ": valid from " + timeText(X509_get0_notBefore(cert));
        text += ")";
        break;
    default:
        break;
    }
    return text;
}

} // namespace tacho::engine
