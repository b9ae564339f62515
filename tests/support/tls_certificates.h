#pragma once
// Test fixture: a small PKI made at test time with the OpenSSL API (EC P-256
// keys, SHA-256 signatures), written as PEM files into a temporary directory
// that lives as long as the object.
//
//   tacho::test::TlsCertificates certificates;
//   QString error;
//   QVERIFY2(certificates.generate(&error), qPrintable(error));
//   settings.caCert = certificates.caCert().toStdString();
//
// What it makes:
//   ca           "Tacho Test CA", signs everything below except foreignClient
//   otherCa      "Tacho Other CA", unrelated to ca (the wrong-CA tests)
//   server       signed by ca; SAN DNS:localhost, IP:127.0.0.1, IP:::1
//   localhostOnly signed by ca; SAN DNS:localhost only (hostname mismatch by IP)
//   expired      signed by ca; SAN as server, valid from 2 days ago until yesterday
//   client       signed by ca; extendedKeyUsage clientAuth (mutual TLS)
//   foreignClient signed by otherCa (a client certificate the server rejects)
// and caDirectory(): a directory holding ca under its subject hash name
// ("<hash>.0"), as OpenSSL's CA directories (--cacertdir) need.
//
// Not thread-safe; generate() once, then read the paths from any thread.
#include <QString>

#include <memory>

class QTemporaryDir;

namespace tacho::test {

class TlsCertificates {
public:
    struct Pair {
        QString cert;   // PEM certificate file
        QString key;    // PEM private key file (unencrypted PKCS#8)
    };

    TlsCertificates();
    ~TlsCertificates();
    TlsCertificates(const TlsCertificates&) = delete;
    TlsCertificates& operator=(const TlsCertificates&) = delete;

    // Makes every file (a few milliseconds). false with a message on failure.
    bool generate(QString* error);

    QString directory() const;
    QString caCert() const;
    QString caKey() const;
    QString caDirectory() const;
    QString otherCaCert() const;
    Pair server() const;
    Pair localhostOnly() const;
    Pair expired() const;
    Pair client() const;
    Pair foreignClient() const;

private:
    QString path(const char* name) const;

    std::unique_ptr<QTemporaryDir> m_dir;
};

} // namespace tacho::test
