#pragma once
// Editing a connection profile: address (host and port, Unix socket, or a
// redis:// / rediss:// / unix:// URI), credentials, database, protocol,
// cluster flag, TLS files. "Test connection" runs off the GUI thread through
// the engine bridge; a result for an older test is dropped.
#include <QDialog>

#include "ui/model/connection_profile.h"
#include "ui/model/connection_test_result.h"

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace tacho::ui {

class EngineBridge;

class ProfileDialog : public QDialog {
    Q_OBJECT
public:
    // `password`: the stored one (already read from the keychain), or empty.
    ProfileDialog(const ConnectionProfile& profile, const QString& password, const QString& keychainNote,
                  EngineBridge* bridge, QWidget* parent = nullptr);

    ConnectionProfile profile() const;
    QString password() const;
    bool passwordChanged() const;

    // Starts a connection test with the fields as they are now.
    void testConnection();
    QString testResultText() const;

Q_SIGNALS:
    void connectionTestFinished(bool ok);

private:
    void fillFromUri();
    void showFieldsAsUri();
    void updateState();
    // What stops saving; without `needName`, what stops a connection test.
    QString validate(bool needName = true) const;
    QString uriProblem() const;
    static QString asUri(const QString& text);
    QPushButton* browseButton(QLineEdit* edit, const QString& title);

    ConnectionProfile m_original;
    QString m_originalPassword;
    EngineBridge* m_bridge;
    quint64 m_testId = 0;

    QLineEdit* m_name = nullptr;
    QLineEdit* m_uri = nullptr;
    QLabel* m_uriError = nullptr;
    QRadioButton* m_tcp = nullptr;
    QRadioButton* m_unix = nullptr;
    QLineEdit* m_host = nullptr;
    QSpinBox* m_port = nullptr;
    QLineEdit* m_socket = nullptr;
    QLineEdit* m_user = nullptr;
    QLineEdit* m_password = nullptr;
    QSpinBox* m_database = nullptr;
    QComboBox* m_protocol = nullptr;
    QCheckBox* m_cluster = nullptr;
    QGroupBox* m_tls = nullptr;
    QLineEdit* m_ca = nullptr;
    QLineEdit* m_cert = nullptr;
    QLineEdit* m_key = nullptr;
    QLineEdit* m_sni = nullptr;
    QCheckBox* m_skipVerify = nullptr;
    QLabel* m_problems = nullptr;
    QPushButton* m_test = nullptr;
    QLabel* m_result = nullptr;
    QPushButton* m_ok = nullptr;
};

} // namespace tacho::ui
