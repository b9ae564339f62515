#include "ui/targets/profile_dialog.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QSslCertificate>
#include <QVBoxLayout>

#include "ui/bridges/engine_bridge.h"

namespace tacho::ui {

ProfileDialog::ProfileDialog(const ConnectionProfile& profile, const QString& password, const QString& keychainNote,
                             EngineBridge* bridge, QWidget* parent)
    : QDialog(parent), m_original(profile), m_originalPassword(password), m_bridge(bridge)
{
    setWindowTitle(profile.name.isEmpty() ? tr("New target") : tr("Target: %1").arg(profile.name));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    layout->addLayout(form);

    m_name = new QLineEdit(profile.name, this);
    m_name->setAccessibleName(tr("Profile name"));
    form->addRow(tr("&Name:"), m_name);

    m_uri = new QLineEdit(this);
    m_uri->setPlaceholderText(tr("redis://user:password@host:6379/0, rediss://…, unix:///run/redis.sock"));
    m_uri->setAccessibleName(tr("Server URI"));
    m_uri->setToolTip(tr("Paste a URI or host:port to fill the fields below; editing the fields updates it"));
    m_uriError = new QLabel(this);
    m_uriError->setWordWrap(true);
    auto* uriBox = new QVBoxLayout;
    uriBox->setSpacing(2);
    uriBox->addWidget(m_uri);
    uriBox->addWidget(m_uriError);
    // A row made of a layout gets a label without a buddy, which shows its "&".
    auto* uriLabel = new QLabel(tr("&URI:"), this);
    uriLabel->setBuddy(m_uri);
    form->addRow(uriLabel, uriBox);
    m_uriError->hide();

    m_tcp = new QRadioButton(tr("&Host:"), this);
    m_unix = new QRadioButton(tr("Unix &socket:"), this);
    auto* kind = new QButtonGroup(this);
    kind->addButton(m_tcp);
    kind->addButton(m_unix);
    auto* hostRow = new QHBoxLayout;
    m_host = new QLineEdit(profile.host, this);
    m_host->setAccessibleName(tr("Host"));
    m_host->setToolTip(tr("The server's host name or address"));
    m_port = new QSpinBox(this);
    m_port->setRange(1, 65535);
    m_port->setValue(profile.port ? profile.port : 6379);
    m_port->setAccessibleName(tr("Port"));
    m_port->setToolTip(tr("The server's TCP port"));
    hostRow->addWidget(m_host, 1);
    hostRow->addWidget(new QLabel(tr("Port:"), this));
    hostRow->addWidget(m_port);
    form->addRow(m_tcp, hostRow);
    auto* socketRow = new QHBoxLayout;
    m_socket = new QLineEdit(profile.unixSocket, this);
    m_socket->setAccessibleName(tr("Unix socket path"));
    m_socket->setToolTip(tr("The path of the server's Unix socket"));
    socketRow->addWidget(m_socket, 1);
    socketRow->addWidget(browseButton(m_socket, tr("Unix socket")));
    form->addRow(m_unix, socketRow);
    (profile.unixSocket.isEmpty() ? m_tcp : m_unix)->setChecked(true);

    m_user = new QLineEdit(profile.user, this);
    m_user->setPlaceholderText(tr("default"));
    m_user->setAccessibleName(tr("User"));
    m_user->setToolTip(tr("ACL user name; empty for the default user"));
    form->addRow(tr("U&ser:"), m_user);
    m_password = new QLineEdit(password, this);
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setAccessibleName(tr("Password"));
    m_password->setToolTip(tr("Kept in the system keychain, never in the profile file"));
    form->addRow(tr("&Password:"), m_password);
    if (!keychainNote.isEmpty()) {
        auto* note = new QLabel(keychainNote, this);
        note->setWordWrap(true);
        note->setForegroundRole(QPalette::PlaceholderText);
        form->addRow(QString(), note);
    }
    m_database = new QSpinBox(this);
    m_database->setRange(0, 1000000);
    m_database->setValue(profile.database);
    m_database->setAccessibleName(tr("Database"));
    m_database->setToolTip(tr("The database number runs SELECT"));
    form->addRow(tr("&Database:"), m_database);
    m_protocol = new QComboBox(this);
    m_protocol->addItem(QStringLiteral("RESP2"), 2);
    m_protocol->addItem(QStringLiteral("RESP3"), 3);
    m_protocol->setCurrentIndex(profile.protocol == 3 ? 1 : 0);
    m_protocol->setAccessibleName(tr("Protocol"));
    m_protocol->setToolTip(tr("RESP3 sends HELLO 3 first"));
    form->addRow(tr("P&rotocol:"), m_protocol);
    m_cluster = new QCheckBox(tr("Redis Cluster"), this);
    m_cluster->setChecked(profile.cluster);
    m_cluster->setToolTip(tr("This node is a seed: runs discover the masters, route each key to its slot's master and follow "
                             "MOVED / ASK"));
    form->addRow(QString(), m_cluster);

    m_tls = new QGroupBox(tr("&TLS"), this);
    m_tls->setCheckable(true);
    m_tls->setChecked(profile.tls);
    m_tls->setToolTip(tr("Connect with TLS (a rediss:// URI)"));
    auto* tlsForm = new QFormLayout(m_tls);
    const auto fileRow = [&](QLineEdit*& edit, const QString& value, const QString& label, const QString& tip) {
        edit = new QLineEdit(value, m_tls);
        edit->setAccessibleName(label);
        edit->setToolTip(tip);
        auto* row = new QHBoxLayout;
        row->addWidget(edit, 1);
        row->addWidget(browseButton(edit, label));
        tlsForm->addRow(label + QLatin1Char(':'), row);
    };
    fileRow(m_ca, profile.caCertFile, tr("CA certificate"), tr("The CA certificate that verifies the server"));
    fileRow(m_cert, profile.clientCertFile, tr("Client certificate"), tr("The certificate this client shows the server"));
    fileRow(m_key, profile.clientKeyFile, tr("Client key"), tr("The private key of the client certificate"));
    m_sni = new QLineEdit(profile.sni, m_tls);
    m_sni->setAccessibleName(tr("Server name (SNI)"));
    m_sni->setToolTip(tr("The name sent to the server in the TLS handshake; empty: the host"));
    tlsForm->addRow(tr("Server name (SNI):"), m_sni);
    m_skipVerify = new QCheckBox(tr("Do not verify the server certificate"), m_tls);
    m_skipVerify->setChecked(profile.skipVerify);
    m_skipVerify->setToolTip(tr("Accept any server certificate (testing only)"));
    tlsForm->addRow(QString(), m_skipVerify);
    layout->addWidget(m_tls);

    m_problems = new QLabel(this);
    m_problems->setWordWrap(true);
    QPalette warn = m_problems->palette();
    warn.setColor(QPalette::WindowText, QColor(0xc0, 0x39, 0x2b));
    m_problems->setPalette(warn);
    m_uriError->setPalette(warn);
    layout->addWidget(m_problems);

    auto* testRow = new QHBoxLayout;
    m_test = new QPushButton(tr("Test &connection"), this);
    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setAccessibleName(tr("Connection test result"));
    testRow->addWidget(m_test);
    testRow->addWidget(m_result, 1);
    layout->addLayout(testRow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    layout->addWidget(buttons);

    // A URI typed but not yet applied (Enter pressed in it) is applied first;
    // nothing that did not parse is saved.
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        fillFromUri();
        if (validate().isEmpty())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_uri, &QLineEdit::editingFinished, this, &ProfileDialog::fillFromUri);
    connect(m_uri, &QLineEdit::textEdited, this, &ProfileDialog::updateState);
    // The URI follows the fields (while it is not being typed in).
    for (QLineEdit* e : { m_host, m_socket, m_user })
        connect(e, &QLineEdit::textChanged, this, &ProfileDialog::showFieldsAsUri);
    for (QSpinBox* box : { m_port, m_database })
        connect(box, &QSpinBox::valueChanged, this, &ProfileDialog::showFieldsAsUri);
    connect(m_tcp, &QRadioButton::toggled, this, &ProfileDialog::showFieldsAsUri);
    connect(m_tls, &QGroupBox::toggled, this, &ProfileDialog::showFieldsAsUri);
    connect(m_test, &QPushButton::clicked, this, &ProfileDialog::testConnection);
    for (QLineEdit* e : { m_name, m_host, m_socket, m_ca, m_cert, m_key })
        connect(e, &QLineEdit::textChanged, this, &ProfileDialog::updateState);
    connect(m_tcp, &QRadioButton::toggled, this, &ProfileDialog::updateState);
    connect(m_tls, &QGroupBox::toggled, this, &ProfileDialog::updateState);
    if (m_bridge) {
        connect(m_bridge, &EngineBridge::connectionTested, this, [this](quint64 id, const ConnectionTestResult& result) {
            if (id != m_testId)
                return;   // an older test: its fields are no longer the ones shown
            m_test->setEnabled(true);
            QPalette p = m_result->palette();
            p.setColor(QPalette::WindowText, result.ok ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc0, 0x39, 0x2b));
            m_result->setPalette(p);
            m_result->setText((result.ok ? QStringLiteral("✓ ") : QStringLiteral("✗ ")) + result.describe());
            Q_EMIT connectionTestFinished(result.ok);
        });
    }
    showFieldsAsUri();
    updateState();
    resize(560, sizeHint().height());
}

QPushButton* ProfileDialog::browseButton(QLineEdit* edit, const QString& title)
{
    auto* button = new QPushButton(tr("Browse…"), this);
    button->setAccessibleName(tr("Browse for %1").arg(title));
    connect(button, &QPushButton::clicked, this, [this, edit, title] {
        const QString path = QFileDialog::getOpenFileName(this, title, QFileInfo(edit->text()).absolutePath());
        if (!path.isEmpty())
            edit->setText(path);
    });
    return button;
}

void ProfileDialog::fillFromUri()
{
    const QString text = m_uri->text().trimmed();
    if (text.isEmpty()) {
        m_uriError->clear();
        m_uriError->hide();
        return;
    }
    ConnectionProfile p = profile();
    QString password;
    QString error;
    if (!p.applyUri(asUri(text), &password, &error)) {
        updateState();   // the problems line says why; OK stays disabled
        return;
    }
    m_uriError->clear();
    m_uriError->hide();
    (p.unixSocket.isEmpty() ? m_tcp : m_unix)->setChecked(true);
    m_host->setText(p.host);
    m_port->setValue(p.port);
    m_socket->setText(p.unixSocket);
    m_user->setText(p.user);
    m_database->setValue(p.database);
    m_tls->setChecked(p.tls);
    if (!password.isEmpty())
        m_password->setText(password);
    // The URI held the password: do not leave it on screen in clear text.
    m_uri->setText(p.uri());
    updateState();
}

QString ProfileDialog::asUri(const QString& text)
{
    // "host", "host:port" and "[::1]:port" are what people paste most.
    return text.contains(QLatin1String("://")) ? text : QStringLiteral("redis://") + text;
}

void ProfileDialog::showFieldsAsUri()
{
    if (m_uri->hasFocus())
        return;   // being typed in: it is applied when done
    const ConnectionProfile p = profile();
    const bool empty = m_tcp->isChecked() ? p.host.isEmpty() : p.unixSocket.isEmpty();
    m_uri->setText(empty ? QString() : p.uri());
    m_uriError->clear();
    m_uriError->hide();
}

QString ProfileDialog::uriProblem() const
{
    const QString text = m_uri->text().trimmed();
    if (text.isEmpty())
        return {};
    ConnectionProfile scratch;
    QString password;
    QString error;
    return scratch.applyUri(asUri(text), &password, &error) ? QString() : tr("The URI is not usable: %1").arg(error);
}

QString ProfileDialog::validate(bool needName) const
{
    QStringList problems;
    if (needName && m_name->text().trimmed().isEmpty())
        problems << tr("Give the target a name.");
    if (const QString uri = uriProblem(); !uri.isEmpty())
        problems << uri;
    if (m_tcp->isChecked() && m_host->text().trimmed().isEmpty())
        problems << tr("Enter a host name or address.");
    if (m_unix->isChecked() && m_socket->text().trimmed().isEmpty())
        problems << tr("Enter the Unix socket path.");
    if (m_tls->isChecked()) {
        // Qt Network reads the certificate files here only to tell the
        // person early; the engine does the TLS.
        const auto checkCert = [&](QLineEdit* edit, const QString& what) {
            const QString path = edit->text().trimmed();
            if (path.isEmpty())
                return;
            if (!QFileInfo::exists(path))
                problems << tr("%1: %2 does not exist.").arg(what, path);
            else if (QSslCertificate::fromPath(path, QSsl::Pem).isEmpty() && QSslCertificate::fromPath(path, QSsl::Der).isEmpty())
                problems << tr("%1: %2 holds no certificate.").arg(what, path);
        };
        checkCert(m_ca, tr("CA certificate"));
        checkCert(m_cert, tr("Client certificate"));
        if (!m_key->text().trimmed().isEmpty() && !QFileInfo::exists(m_key->text().trimmed()))
            problems << tr("Client key: %1 does not exist.").arg(m_key->text().trimmed());
        if (m_cert->text().trimmed().isEmpty() != m_key->text().trimmed().isEmpty())
            problems << tr("A client certificate needs its key, and a key its certificate.");
    }
    return problems.join(QLatin1Char(' '));
}

void ProfileDialog::updateState()
{
    m_host->setEnabled(m_tcp->isChecked());
    m_port->setEnabled(m_tcp->isChecked());
    m_socket->setEnabled(m_unix->isChecked());
    const QString problems = validate();
    m_problems->setText(problems);
    m_problems->setVisible(!problems.isEmpty());
    m_ok->setEnabled(problems.isEmpty());
    m_test->setEnabled(m_bridge && validate(false).isEmpty());   // a test needs no name
}

ConnectionProfile ProfileDialog::profile() const
{
    ConnectionProfile p = m_original;
    if (p.id.isEmpty())
        p.id = ConnectionProfile::newId();
    p.name = m_name->text().trimmed();
    p.host = m_host->text().trimmed();
    p.port = static_cast<quint16>(m_port->value());
    p.unixSocket = m_unix->isChecked() ? m_socket->text().trimmed() : QString();
    p.user = m_user->text().trimmed();
    p.hasPassword = !m_password->text().isEmpty();
    p.database = m_database->value();
    p.protocol = m_protocol->currentData().toInt();
    p.cluster = m_cluster->isChecked();
    p.tls = m_tls->isChecked();
    p.caCertFile = m_ca->text().trimmed();
    p.clientCertFile = m_cert->text().trimmed();
    p.clientKeyFile = m_key->text().trimmed();
    p.sni = m_sni->text().trimmed();
    p.skipVerify = m_skipVerify->isChecked();
    return p;
}

QString ProfileDialog::password() const
{
    return m_password->text();
}

bool ProfileDialog::passwordChanged() const
{
    return m_password->text() != m_originalPassword;
}

void ProfileDialog::testConnection()
{
    if (!m_bridge)
        return;
    engine::RunConfig config;
    profile().applyTo(config, password());
    m_testId = m_bridge->testConnection(config);
    m_test->setEnabled(false);
    m_result->setPalette(palette());
    m_result->setText(tr("Connecting to %1…").arg(profile().address()));
    // A later click starts a new test; this one's result will be dropped.
    m_test->setEnabled(true);
}

QString ProfileDialog::testResultText() const
{
    return m_result->text();
}

} // namespace tacho::ui
