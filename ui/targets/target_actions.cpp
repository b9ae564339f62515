#include "ui/targets/target_actions.h"

#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QWidget>

#include "ui/stores/password_vault.h"
#include "ui/stores/profile_store.h"
#include "ui/targets/profile_dialog.h"
#include "ui/targets/profile_list_model.h"

namespace tacho::ui {

TargetActions::TargetActions(const ProfileStore& store, ProfileListModel* profiles, PasswordVault* vault,
                             EngineBridge* bridge, QWidget* dialogParent)
    : QObject(dialogParent), m_store(store), m_profiles(profiles), m_vault(vault), m_bridge(bridge),
      m_dialogParent(dialogParent)
{
}

void TargetActions::withPassword(const ConnectionProfile& target, std::function<void(const QString&)> then,
                                 std::function<void()> declined)
{
    if (m_transientPasswords.contains(target.id)) {
        then(m_transientPasswords.value(target.id));
        return;
    }
    if (!target.hasPassword) {
        then(QString());
        return;
    }
    Q_EMIT message(tr("Reading the password of %1 from the keychain…").arg(target.name), 0);
    m_vault->load(target.secretKey(), [this, target, then, declined](std::optional<QString> password, const QString& error) {
        Q_EMIT messageCleared();
        if (password)
            then(*password);
        else
            askForSessionPassword(target, error, then, declined);
    });
}

void TargetActions::askForSessionPassword(const ConnectionProfile& target, const QString& why,
                                          std::function<void(const QString&)> then, std::function<void()> declined)
{
    // Window-modal and asynchronous: the caller's run starts from the answer.
    auto* dialog = new QInputDialog(m_dialogParent);
    dialog->setObjectName(QStringLiteral("sessionPasswordDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setWindowTitle(tr("Password for %1").arg(target.name));
    dialog->setLabelText(tr("The password of “%1” could not be read: %2.\n\n"
                            "Type it to use it until Tacho quits; it is kept in memory only, never written.")
                             .arg(target.name, why));
    dialog->setTextEchoMode(QLineEdit::Password);
    dialog->setOkButtonText(tr("Use for this session"));
    // The reason can be long (the keychain's own words): wrap it in a dialog of a readable width.
    if (auto* label = dialog->findChild<QLabel*>())
        label->setWordWrap(true);
    dialog->resize(dialog->fontMetrics().averageCharWidth() * 70, dialog->sizeHint().height());
    connect(dialog, &QInputDialog::textValueSelected, this, [this, target, then](const QString& password) {
        m_vault->keepForSession(target.secretKey(), password);
        then(password);
    });
    connect(dialog, &QDialog::rejected, this, [this, target, declined] {
        Q_EMIT message(tr("Not run: no password for %1").arg(target.name), 10000);
        if (declined)
            declined();
    });
    dialog->open();
}

void TargetActions::addTransient(const ConnectionProfile& profile, const QString& password)
{
    m_transientPasswords.insert(profile.id, password);
    m_profiles->upsert(profile);
}

void TargetActions::save(ConnectionProfile profile, const QString& password, bool passwordChanged,
                         std::function<void(const QString&)> done)
{
    if (passwordChanged)
        profile.hasPassword = !password.isEmpty();
    QString error;
    if (!m_store.save(profile, &error)) {
        QMessageBox::warning(m_dialogParent, tr("Save target"), error);
        if (done)
            done(error);
        return;
    }
    m_profiles->upsert(profile);
    if (!passwordChanged) {
        if (done)
            done(tr("Target saved"));
        return;
    }
    if (password.isEmpty()) {
        m_vault->remove(profile.secretKey(), [done] {
            if (done)
                done(tr("Target saved; password removed"));
        });
        return;
    }
    m_vault->store(profile.secretKey(), password, [this, done](bool inKeychain, const QString& why) {
        const QString text = inKeychain ? tr("Target saved; password in the keychain") : why;
        Q_EMIT message(text, 10000);
        if (done)
            done(text);
    });
}

void TargetActions::edit(const ConnectionProfile& profile)
{
    if (profile.isSandbox())
        return;
    const auto show = [this, profile](const QString& password, const QString& note) {
        ProfileDialog dialog(profile, password, note, m_bridge, m_dialogParent);
        if (dialog.exec() != QDialog::Accepted)
            return;
        const ConnectionProfile edited = dialog.profile();
        save(edited, dialog.password(), dialog.passwordChanged());
        Q_EMIT selectRequested(edited.id);
    };
    const QString note = m_vault->state() == PasswordVault::State::SessionOnly ? m_vault->unavailableReason()
                                                                               : tr("The password is kept in the system keychain.");
    if (!profile.hasPassword) {
        show(QString(), note);
        return;
    }
    m_vault->load(profile.secretKey(), [show, note](std::optional<QString> password, const QString& why) {
        show(password.value_or(QString()), password ? note : why);
    });
}

void TargetActions::remove(int row)
{
    if (row <= 0 || row >= m_profiles->rowCount())
        return;
    const ConnectionProfile profile = m_profiles->profileAt(row);
    if (QMessageBox::question(m_dialogParent, tr("Delete target"),
                              tr("Delete the target \"%1\" and its stored password?").arg(profile.name),
                              QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
        != QMessageBox::Yes)
        return;
    QString error;
    if (!m_store.remove(profile.id, &error)) {
        QMessageBox::warning(m_dialogParent, tr("Delete target"), error);
        return;
    }
    if (profile.hasPassword)
        m_vault->remove(profile.secretKey());
    m_profiles->remove(profile.id);
}

void TargetActions::importFromFile()
{
    const QString path = QFileDialog::getOpenFileName(m_dialogParent, tr("Import targets"), QString(), tr("Tacho targets (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    const QList<ConnectionProfile> imported = ProfileStore::importFrom(path, &error);
    for (const ConnectionProfile& p : imported)
        save(p, QString(), false);
    Q_EMIT message(tr("Imported %1 target(s) without passwords%2")
                       .arg(imported.size())
                       .arg(error.isEmpty() ? QString() : QStringLiteral(" — ") + error),
                   10000);
}

void TargetActions::exportToFile()
{
    const QString path = QFileDialog::getSaveFileName(m_dialogParent, tr("Export targets"), QStringLiteral("tacho-targets.json"),
                                                      tr("Tacho targets (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!ProfileStore::exportTo(path, m_profiles->savedProfiles(), &error))
        QMessageBox::warning(m_dialogParent, tr("Export targets"), error);
    else
        Q_EMIT message(tr("Exported %1 target(s) to %2 — passwords are not exported").arg(m_profiles->savedProfiles().size()).arg(path),
                       10000);
}

void TargetActions::offerFor(const WorkloadSettings::Target& target)
{
    ConnectionProfile p = target.profile();
    p.name = target.unixSocket.isEmpty() ? QStringLiteral("%1:%2").arg(target.host).arg(target.port) : target.unixSocket;
    for (const ConnectionProfile& existing : m_profiles->savedProfiles()) {
        if (existing.host == p.host && existing.port == p.port && existing.unixSocket == p.unixSocket) {
            Q_EMIT selectRequested(existing.id);
            Q_EMIT message(tr("The line's server is the target \"%1\": selected it").arg(existing.name), 8000);
            return;
        }
    }
    if (QMessageBox::question(m_dialogParent, tr("Pasted target"),
                              tr("The pasted line names the server %1.\nCreate a target for it?").arg(p.address()))
        != QMessageBox::Yes)
        return;
    ProfileDialog dialog(p, target.password, m_vault->unavailableReason(), m_bridge, m_dialogParent);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ConnectionProfile edited = dialog.profile();
    save(edited, dialog.password(), true);
    Q_EMIT selectRequested(edited.id);
}

} // namespace tacho::ui
