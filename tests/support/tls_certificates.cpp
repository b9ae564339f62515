#include "support/tls_certificates.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdio>

#include "engine/net/tls_context.h"

namespace tacho::test {

namespace {

constexpr long kDay = 24L * 60 * 60;

struct KeyFree {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct CertFree {
    void operator()(X509* cert) const { X509_free(cert); }
};
struct BioFree {
    void operator()(BIO* bio) const { BIO_free(bio); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;
using Cert = std::unique_ptr<X509, CertFree>;

struct Spec {
    const char* commonName;
    bool ca = false;
    const char* altNames = nullptr;       // "DNS:localhost,IP:127.0.0.1"
    const char* extendedUsage = nullptr;  // "serverAuth", "clientAuth"
    long validFrom = -kDay;               // seconds from now
    long validUntil = 30 * kDay;
};

bool failed(QString* error, const QString& what)
{
    const std::string reasons = tacho::engine::drainTlsErrors();
    if (error)
        *error = what + (reasons.empty() ? QString() : QStringLiteral(": ") + QString::fromStdString(reasons));
    return false;
}

bool addExtension(X509* cert, X509V3_CTX* context, int nid, const char* value, QString* error)
{
    X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, context, nid, value);
    if (!extension)
        return failed(error, QStringLiteral("cannot make extension %1 = %2").arg(OBJ_nid2sn(nid), value));
    const bool ok = X509_add_ext(cert, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return ok || failed(error, QStringLiteral("cannot add extension %1").arg(OBJ_nid2sn(nid)));
}

// A certificate for `key`, signed by issuer/issuerKey, or self-signed when
// issuer is null.
Cert makeCertificate(const Spec& spec, EVP_PKEY* key, X509* issuer, EVP_PKEY* issuerKey, QString* error)
{
    Cert cert(X509_new());
    if (!cert) {
        failed(error, QStringLiteral("X509_new"));
        return nullptr;
    }
    // Random serials: two certificates from one issuer must never share one.
    unsigned char serialBytes[12];
    RAND_bytes(serialBytes, sizeof serialBytes);
    serialBytes[0] &= 0x7f;   // positive
    BIGNUM* serial = BN_bin2bn(serialBytes, sizeof serialBytes, nullptr);
    BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert.get()));
    BN_free(serial);

    X509_set_version(cert.get(), X509_VERSION_3);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), spec.validFrom);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), spec.validUntil);
    X509_set_pubkey(cert.get(), key);

    X509_NAME* name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>("Tacho tests"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>(spec.commonName), -1, -1, 0);
    X509_set_issuer_name(cert.get(), issuer ? X509_get_subject_name(issuer) : name);

    X509V3_CTX context;
    X509V3_set_ctx(&context, issuer ? issuer : cert.get(), cert.get(), nullptr, nullptr, 0);
    bool ok = addExtension(cert.get(), &context, NID_subject_key_identifier, "hash", error);
    if (spec.ca) {
        ok = ok && addExtension(cert.get(), &context, NID_basic_constraints, "critical,CA:TRUE", error)
             && addExtension(cert.get(), &context, NID_key_usage, "critical,keyCertSign,cRLSign", error);
    } else {
        ok = ok && addExtension(cert.get(), &context, NID_basic_constraints, "critical,CA:FALSE", error)
             && addExtension(cert.get(), &context, NID_key_usage, "critical,digitalSignature", error)
             && addExtension(cert.get(), &context, NID_authority_key_identifier, "keyid:always", error);
    }
    if (ok && spec.altNames)
        ok = addExtension(cert.get(), &context, NID_subject_alt_name, spec.altNames, error);
    if (ok && spec.extendedUsage)
        ok = addExtension(cert.get(), &context, NID_ext_key_usage, spec.extendedUsage, error);
    if (!ok)
        return nullptr;

    if (X509_sign(cert.get(), issuerKey ? issuerKey : key, EVP_sha256()) <= 0) {
        failed(error, QStringLiteral("cannot sign the certificate for %1").arg(spec.commonName));
        return nullptr;
    }
    return cert;
}

Key makeKey(QString* error)
{
    Key key(EVP_EC_gen("P-256"));
    if (!key)
        failed(error, QStringLiteral("cannot generate an EC P-256 key"));
    return key;
}

bool writeCert(const QString& path, X509* cert, QString* error)
{
    std::unique_ptr<BIO, BioFree> bio(BIO_new_file(QFile::encodeName(path).constData(), "w"));
    if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1)
        return failed(error, QStringLiteral("cannot write %1").arg(path));
    return true;
}

bool writeKey(const QString& path, EVP_PKEY* key, QString* error)
{
    std::unique_ptr<BIO, BioFree> bio(BIO_new_file(QFile::encodeName(path).constData(), "w"));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return failed(error, QStringLiteral("cannot write %1").arg(path));
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

} // namespace

TlsCertificates::TlsCertificates() = default;
TlsCertificates::~TlsCertificates() = default;

QString TlsCertificates::path(const char* name) const
{
    return m_dir ? m_dir->filePath(QString::fromLatin1(name)) : QString();
}

QString TlsCertificates::directory() const { return m_dir ? m_dir->path() : QString(); }
QString TlsCertificates::caCert() const { return path("ca.crt"); }
QString TlsCertificates::caKey() const { return path("ca.key"); }
QString TlsCertificates::caDirectory() const { return path("ca-dir"); }
QString TlsCertificates::otherCaCert() const { return path("other-ca.crt"); }
TlsCertificates::Pair TlsCertificates::server() const { return {path("server.crt"), path("server.key")}; }
TlsCertificates::Pair TlsCertificates::localhostOnly() const
{
    return {path("localhost-only.crt"), path("localhost-only.key")};
}
TlsCertificates::Pair TlsCertificates::expired() const { return {path("expired.crt"), path("expired.key")}; }
TlsCertificates::Pair TlsCertificates::client() const { return {path("client.crt"), path("client.key")}; }
TlsCertificates::Pair TlsCertificates::foreignClient() const
{
    return {path("foreign-client.crt"), path("foreign-client.key")};
}

bool TlsCertificates::generate(QString* error)
{
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/tacho-tls-XXXXXX"));
    if (!m_dir->isValid()) {
        if (error)
            *error = QStringLiteral("cannot create a temporary directory: %1").arg(m_dir->errorString());
        return false;
    }

    // The two CAs.
    Key caKey = makeKey(error);
    Key otherKey = makeKey(error);
    if (!caKey || !otherKey)
        return false;
    Cert ca = makeCertificate({"Tacho Test CA", true}, caKey.get(), nullptr, nullptr, error);
    Cert other = makeCertificate({"Tacho Other CA", true}, otherKey.get(), nullptr, nullptr, error);
    if (!ca || !other)
        return false;
    if (!writeCert(caCert(), ca.get(), error) || !writeKey(this->caKey(), caKey.get(), error)
        || !writeCert(otherCaCert(), other.get(), error))
        return false;

    // OpenSSL finds CAs in a directory by "<subject hash>.0".
    if (!QDir().mkpath(caDirectory())) {
        if (error)
            *error = QStringLiteral("cannot create %1").arg(caDirectory());
        return false;
    }
    char hashName[32];
    std::snprintf(hashName, sizeof hashName, "%08lx.0",
                  X509_NAME_hash_ex(X509_get_subject_name(ca.get()), nullptr, nullptr, nullptr));
    if (!writeCert(caDirectory() + QLatin1Char('/') + QString::fromLatin1(hashName), ca.get(), error))
        return false;

    // Leaf certificates, each with its own key.
    struct Leaf {
        Pair files;
        Spec spec;
        bool byOther = false;
    };
    const char* const serverNames = "DNS:localhost,IP:127.0.0.1,IP:::1";
    const Leaf leaves[] = {
        {server(), {"localhost", false, serverNames, "serverAuth"}},
        {localhostOnly(), {"localhost", false, "DNS:localhost", "serverAuth"}},
        {expired(), {"localhost", false, serverNames, "serverAuth", -2 * kDay, -kDay}},
        {client(), {"tacho-client", false, nullptr, "clientAuth"}},
        {foreignClient(), {"tacho-foreign-client", false, nullptr, "clientAuth"}, true},
    };
    for (const Leaf& leaf : leaves) {
        Key key = makeKey(error);
        if (!key)
            return false;
        X509* issuer = leaf.byOther ? other.get() : ca.get();
        EVP_PKEY* issuerKey = leaf.byOther ? otherKey.get() : caKey.get();
        Cert cert = makeCertificate(leaf.spec, key.get(), issuer, issuerKey, error);
        if (!cert || !writeCert(leaf.files.cert, cert.get(), error) || !writeKey(leaf.files.key, key.get(), error))
            return false;
    }
    return true;
}

} // namespace tacho::test
