#include "ui/stores/password_vault.h"

#include <QFileInfo>
#include <QPointer>
#include <QTimer>

#include <memory>
#include <qt6keychain/keychain.h>

namespace tacho::ui {

namespace {

// Runs `job` with a deadline; `finish(ok, timedOut)` is called once.
void runWithDeadline(QKeychain::Job* job, int timeoutMs, QObject* context,
                     std::function<void(QKeychain::Job*, bool timedOut)> finish)
{
    auto done = std::make_shared<bool>(false);
    auto* timer = new QTimer(context);
    timer->setSingleShot(true);
    QObject::connect(timer, &QTimer::timeout, context, [done, finish, timer] {
        timer->deleteLater();
        if (*done)
            return;
        *done = true;
        // The job may still finish later: it deletes itself then (autoDelete);
        // its result is ignored.
        finish(nullptr, true);
    });
    QObject::connect(job, &QKeychain::Job::finished, context, [done, finish, timer](QKeychain::Job* finished) {
        if (*done)
            return;
        *done = true;
        timer->stop();
        timer->deleteLater();
        finish(finished, false);
    });
    timer->start(timeoutMs);
    job->start();
}

} // namespace

PasswordVault::PasswordVault(QString service, QObject* parent) : QObject(parent), m_service(std::move(service))
{
    const QString noBus = missingSessionBus();
    if (!noBus.isEmpty()) {
        m_state = State::SessionOnly;
        m_reason = tr("keychain unavailable (%1): passwords are kept for this session only").arg(noBus);
    }
}

QString PasswordVault::missingSessionBus()
{
    if (!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        return QString();
    const QString runtimeDir = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtimeDir.isEmpty() && QFileInfo(runtimeDir + QStringLiteral("/bus")).exists())
        return QString();
    return tr("no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus");
}

void PasswordVault::markUnavailable(const QString& why)
{
    if (m_state == State::SessionOnly)
        return;
    m_state = State::SessionOnly;
    m_reason = tr("keychain unavailable (%1): passwords are kept for this session only").arg(why);
    Q_EMIT stateChanged(m_state, m_reason);
}

void PasswordVault::store(const QString& key, const QString& password, StoreCallback done)
{
    m_session.insert(key, password);
    if (m_state == State::SessionOnly) {
        done(false, m_reason);
        return;
    }
    auto* job = new QKeychain::WritePasswordJob(m_service);
    job->setAutoDelete(true);
    job->setKey(key);
    job->setTextData(password);
    runWithDeadline(job, m_timeoutMs, this, [this, done](QKeychain::Job* finished, bool timedOut) {
        if (timedOut) {
            markUnavailable(tr("no answer within %1 s").arg(m_timeoutMs / 1000.0));
            done(false, m_reason);
        } else if (finished->error() != QKeychain::NoError) {
            markUnavailable(finished->errorString());
            done(false, m_reason);
        } else {
            if (m_state != State::Keychain) {
                m_state = State::Keychain;
                Q_EMIT stateChanged(m_state, QString());
            }
            done(true, tr("password saved in the keychain"));
        }
    });
}

void PasswordVault::load(const QString& key, LoadCallback done)
{
    if (m_session.contains(key)) {
        done(m_session.value(key), QString());
        return;
    }
    if (m_state == State::SessionOnly) {
        done(std::nullopt, m_reason);
        return;
    }
    auto* job = new QKeychain::ReadPasswordJob(m_service);
    job->setAutoDelete(true);
    job->setKey(key);
    runWithDeadline(job, m_timeoutMs, this, [this, key, done](QKeychain::Job* finished, bool timedOut) {
        if (timedOut) {
            markUnavailable(tr("no answer within %1 s").arg(m_timeoutMs / 1000.0));
            done(std::nullopt, m_reason);
            return;
        }
        if (finished->error() == QKeychain::EntryNotFound) {
            done(std::nullopt, tr("no password stored for this profile"));
            return;
        }
        if (finished->error() != QKeychain::NoError) {
            markUnavailable(finished->errorString());
            done(std::nullopt, m_reason);
            return;
        }
        if (m_state != State::Keychain) {
            m_state = State::Keychain;
            Q_EMIT stateChanged(m_state, QString());
        }
        const QString password = static_cast<QKeychain::ReadPasswordJob*>(finished)->textData();
        m_session.insert(key, password);
        done(password, QString());
    });
}

void PasswordVault::remove(const QString& key, RemoveCallback done)
{
    m_session.remove(key);
    if (m_state == State::SessionOnly) {
        if (done)
            done();
        return;
    }
    auto* job = new QKeychain::DeletePasswordJob(m_service);
    job->setAutoDelete(true);
    job->setKey(key);
    runWithDeadline(job, m_timeoutMs, this, [this, done](QKeychain::Job* finished, bool timedOut) {
        if (timedOut)
            markUnavailable(tr("no answer within %1 s").arg(m_timeoutMs / 1000.0));
        else if (finished->error() != QKeychain::NoError && finished->error() != QKeychain::EntryNotFound)
            markUnavailable(finished->errorString());
        if (done)
            done();
    });
}

} // namespace tacho::ui
