#pragma once
// The "Local sandbox" target: a redis-server of our own on a free loopback
// port (--bind 127.0.0.1 --save '' --appendonly no), in a temporary
// directory, stopped when this object goes (SIGTERM, SIGKILL after 5 s) and
// by the kernel should the workbench die first.
//
// GUI thread only.
#include <QObject>
#include <QProcess>
#include <QString>
#include <QTimer>

#include <memory>

class QTemporaryDir;

namespace tacho::ui {

class SandboxServer : public QObject {
    Q_OBJECT
public:
    enum class State { Stopped, Starting, Ready, Failed };

    explicit SandboxServer(QObject* parent = nullptr);
    ~SandboxServer() override;

    // The redis-server to run: $TACHO_REDIS_SERVER, else redis-server on PATH.
    static QString findExecutable();
    static QString installHint();

    void start();                 // asynchronous: ready() or failed()
    void stop();                  // blocking, at most 5 s
    State state() const { return m_state; }
    quint16 port() const { return m_port; }
    qint64 pid() const;
    QString version() const { return m_version; }
    QString errorString() const { return m_error; }
    QString statusText() const;
    // Whether a run can use the sandbox now; *why (a sentence) if not.
    bool isReady(QString* why = nullptr) const;

Q_SIGNALS:
    void ready(quint16 port);
    void failed(const QString& message);
    void stateChanged(tacho::ui::SandboxServer::State state);

private:
    void launch();
    void onOutput();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void setState(State state);
    static quint16 pickPort();

    std::unique_ptr<QTemporaryDir> m_dir;
    QProcess* m_process = nullptr;
    QTimer m_readyTimeout;
    State m_state = State::Stopped;
    quint16 m_port = 0;
    int m_attempts = 0;
    QString m_version;
    QString m_error;
    QByteArray m_log;
};

} // namespace tacho::ui
