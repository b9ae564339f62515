#pragma once
// Passwords of connection profiles, in the system keychain through
// QtKeychain. Every keychain job has a time limit: without a session D-Bus
// (plain xvfb-run, minimal desktops) a job may never finish. When the
// keychain fails or does not answer in time the vault says so once and keeps
// passwords in memory for this session only; it then stops asking the
// keychain (a hung job would block the jobs queued behind it). Without any
// session bus to ask (no DBUS_SESSION_BUS_ADDRESS and no $XDG_RUNTIME_DIR/bus)
// it starts that way, instead of waiting out a job that cannot be answered.
//
// GUI thread only. Callbacks run on the GUI thread, exactly once each.
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace tacho::ui {

class PasswordVault : public QObject {
    Q_OBJECT
public:
    enum class State { Unknown, Keychain, SessionOnly };

    // done(storedInKeychain, message)
    using StoreCallback = std::function<void(bool, QString)>;
    // done(password or nullopt when there is none, message)
    using LoadCallback = std::function<void(std::optional<QString>, QString)>;
    using RemoveCallback = std::function<void()>;

    static constexpr int kDefaultTimeoutMs = 3000;

    explicit PasswordVault(QString service = QStringLiteral("tacho"), QObject* parent = nullptr);

    // Why no keychain can be reached through D-Bus from this environment
    // ("no D-Bus session bus: …"), empty when a session bus may answer.
    static QString missingSessionBus();

    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    State state() const { return m_state; }
    // Why the keychain is not used ("keychain unavailable: … password kept
    // for this session only"); empty while it works.
    QString unavailableReason() const { return m_reason; }

    void store(const QString& key, const QString& password, StoreCallback done);
    void load(const QString& key, LoadCallback done);
    void remove(const QString& key, RemoveCallback done = {});
    // A password typed for this session (the keychain could not give it):
    // answered by load() until the application quits; never written anywhere.
    void keepForSession(const QString& key, const QString& password) { m_session.insert(key, password); }

Q_SIGNALS:
    void stateChanged(tacho::ui::PasswordVault::State state, const QString& message);

private:
    void markUnavailable(const QString& why);

    QString m_service;
    int m_timeoutMs = kDefaultTimeoutMs;
    State m_state = State::Unknown;
    QString m_reason;
    QHash<QString, QString> m_session;   // passwords for this session (also a cache)
};

} // namespace tacho::ui
