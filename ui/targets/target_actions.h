#pragma once
// What a person does with targets: new, edit, delete, import, export, a
// pasted line's server turned into a target — and the password a run with a
// target needs (none, this session's, or the keychain's). The window owns the
// store, the list and the vault; this class acts on them and reports through
// its signals (the window routes them to the status bar and the target combo).
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

#include "ui/model/connection_profile.h"
#include "ui/model/workload_settings.h"

class QWidget;

namespace tacho::ui {

class EngineBridge;
class PasswordVault;
class ProfileListModel;
class ProfileStore;

class TargetActions : public QObject {
    Q_OBJECT
public:
    // `dialogParent` parents the dialogs and questions; `bridge` tests connections in the profile dialog.
    TargetActions(const ProfileStore& store, ProfileListModel* profiles, PasswordVault* vault, EngineBridge* bridge,
                  QWidget* dialogParent);

    // Calls `then(password)` with the target's password: none, the session's,
    // or the keychain's (asynchronously). When the target has a password that
    // the keychain cannot give (unavailable, or nothing stored), asks for it
    // for this session, saying why; `declined()` runs instead of `then` when
    // the person cancels that question.
    void withPassword(const ConnectionProfile& target, std::function<void(const QString&)> then,
                      std::function<void()> declined = {});
    // A target for this session only; its password stays in memory.
    void addTransient(const ConnectionProfile& profile, const QString& password);
    bool isTransient(const QString& id) const { return m_transientPasswords.contains(id); }

    // Saves a profile (file without password; password to the keychain or,
    // failing that, this session). `done(message)` reports where it went.
    void save(ConnectionProfile profile, const QString& password, bool passwordChanged,
              std::function<void(const QString&)> done = {});
    void edit(const ConnectionProfile& profile);   // the sandbox is not edited
    void remove(int row);                          // asks first; row 0 is the sandbox
    void importFromFile();
    void exportToFile();
    // A pasted line named this server: select its target, or offer to create one.
    void offerFor(const WorkloadSettings::Target& target);

Q_SIGNALS:
    void selectRequested(const QString& id);
    void message(const QString& text, int timeoutMs);
    void messageCleared();

private:
    void askForSessionPassword(const ConnectionProfile& target, const QString& why,
                               std::function<void(const QString&)> then, std::function<void()> declined);

    const ProfileStore& m_store;
    ProfileListModel* m_profiles;
    PasswordVault* m_vault;
    EngineBridge* m_bridge;
    QWidget* m_dialogParent;
    QHash<QString, QString> m_transientPasswords;   // transient targets only
};

} // namespace tacho::ui
