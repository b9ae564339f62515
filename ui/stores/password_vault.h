#pragma once
// Passwords of connection profiles, in the system keychain through
// QtKeychain. Every keychain job has a time limit: without a session D-Bus
// (plain xvfb-run, minimal desktops) a job may never finish. When the
// keychain fails or does not answer in time the vault says so once and keeps
// passwords in memory for this session only; it then stops asking the
// keychain (a hung job would block the jobs queued behind it).
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

    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    State state() const { return m_state; }
    // Why the keychain is not used ("keychain unavailable: … password kept
    // for this session only"); empty while it works.
    QString unavailableReason() const { return m_reason; }

    void store(const QString& key, const QString& password, StoreCallback done);
    void load(const QString& key, LoadCallback done);
    void remove(const QString& key, RemoveCallback done = {});

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
