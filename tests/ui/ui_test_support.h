#pragma once
// Helpers shared by the ui tests (header only: each test_*.cpp is its own
// executable).
#include <QApplication>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QColor>
#include <QFile>
#include <QPalette>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

#include "engine/run/run_result.h"
#include "engine/stats/latency_histogram.h"
#include "ui/model/workload_settings.h"
#include "ui/window/app_context.h"
#include "ui/window/main_window.h"

namespace tacho::test {

// Everything the window writes goes below `dir`; no sandbox unless asked.
inline ui::AppContext temporaryContext(const QTemporaryDir& dir, bool sandbox = false)
{
    ui::AppContext c;
    c.historyDir = QDir(dir.path()).filePath(QStringLiteral("runs"));
    c.profilesDir = QDir(dir.path()).filePath(QStringLiteral("profiles"));
    c.settingsFile = QDir(dir.path()).filePath(QStringLiteral("tacho.conf"));
    c.startSandbox = sandbox;
    c.keychainTimeoutMs = 3000;
    return c;
}

// A small engine result: one SET test of `requests` replies, latencies 100 µs … 2 ms.
inline engine::RunResult syntheticResult(std::uint64_t requests = 1000, const char* status = "completed")
{
    engine::RunResult r;
    r.config.endpoint.host = "127.0.0.1";
    r.config.endpoint.port = 6379;
    r.config.connections = 10;
    r.config.requests = requests;
    engine::TestSpec spec;
    spec.name = "SET";
    spec.args = { "SET", "key:__rand_int__", "xxx" };
    spec.commandStatName = "set";
    r.config.tests = { spec };
    r.environment.toolVersion = "tacho test";
    r.environment.startedAtUtc = "2025-01-31T12:00:00Z";
    r.environment.serverInfo = { { "redis_version", "7.0.15" }, { "redis_mode", "standalone" } };
    engine::TestResult t;
    t.name = "SET";
    t.commandStatName = "set";
    t.requests = requests;
    t.hits = requests;
    t.seconds = 0.5;
    for (std::uint64_t i = 0; i < requests; ++i)
        t.latency.record(100'000 + (i % 20) * 100'000);
    for (int i = 0; i < 5; ++i) {
        engine::IntervalPoint p;
        p.startSeconds = i * 0.1;
        p.endSeconds = (i + 1) * 0.1;
        p.requests = requests / 5;
        p.p50 = 1'000'000;
        p.p99 = 1'900'000;
        p.p999 = 2'000'000;
        p.max = 2'000'000;
        p.mean = 1'050'000;
        t.intervals.push_back(p);
    }
    t.crossCheck.available = true;
    t.crossCheck.command = "set";
    t.crossCheck.serverCalls = requests;
    t.crossCheck.clientRequests = requests;
    r.tests.push_back(std::move(t));
    r.status = std::string(status) == "stopped" ? engine::RunStatus::Stopped
        : std::string(status) == "failed"       ? engine::RunStatus::Failed
                                                : engine::RunStatus::Completed;
    r.totalSeconds = 0.6;
    return r;
}

// With TACHO_UI_SHOTS=DIR set, keeps a picture of `widget` there, for a
// person to look at.
inline void keepPicture(QWidget& widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("TACHO_UI_SHOTS");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    widget.grab().save(QDir(dir).filePath(name));
}

// The dark palette the screenshots and contrast checks use (a desktop's dark
// theme in the same spirit: light text on a blue-grey base).
inline QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2e, 0x30, 0x3e));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x24, 0x26, 0x31));
    p.setColor(QPalette::AlternateBase, QColor(0x32, 0x34, 0x42));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x3a, 0x3c, 0x4a));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Highlight, QColor(0x4e, 0x79, 0xa7));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0x24, 0x26, 0x31));
    p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0xa6));
    p.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xf8));
    p.setColor(QPalette::LinkVisited, QColor(0xc5, 0x8a, 0xf9));
    return p;
}

// Screenshots for a person to look at, only when asked:
// TACHO_SCREENSHOT_DIR=… [TACHO_SCREENSHOT_SIZE=1280x800] [TACHO_SCREENSHOT_DARK=1].
// The file-name stem ("<dir>/1280x800-dark-") and the window size, with the
// dark palette set when asked; nullopt when no screenshots are wanted.
struct ScreenshotRequest {
    QString stem;
    QSize size;
    bool dark = false;
};
inline std::optional<ScreenshotRequest> screenshotRequest()
{
    const QString out = qEnvironmentVariable("TACHO_SCREENSHOT_DIR");
    if (out.isEmpty())
        return std::nullopt;
    const QStringList size = qEnvironmentVariable("TACHO_SCREENSHOT_SIZE", QStringLiteral("1280x800")).split(QLatin1Char('x'));
    const bool dark = qEnvironmentVariableIntValue("TACHO_SCREENSHOT_DARK") != 0;
    if (dark)
        QApplication::setPalette(darkPalette());
    const QSize pixels = size.size() == 2 ? QSize(size[0].toInt(), size[1].toInt()) : QSize(1280, 800);
    return ScreenshotRequest { QStringLiteral("%1/%2x%3-%4-").arg(out).arg(pixels.width()).arg(pixels.height())
                                   .arg(dark ? QStringLiteral("dark") : QStringLiteral("light")),
                               pixels, dark };
}

// The cells of one CSV line (quoted cells may hold commas and "" for ").
inline QStringList csvCells(const QString& line)
{
    QStringList cells { QString() };
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (quoted && c == QLatin1Char('"') && i + 1 < line.size() && line.at(i + 1) == QLatin1Char('"'))
            cells.last() += line.at(++i);
        else if (c == QLatin1Char('"'))
            quoted = !quoted;
        else if (c == QLatin1Char(',') && !quoted)
            cells << QString();
        else
            cells.last() += c;
    }
    return cells;
}

// A target for a fixture server on loopback.
inline ui::ConnectionProfile loopbackProfile(const QString& host, quint16 port, const QString& id = QStringLiteral("fixture"))
{
    ui::ConnectionProfile p;
    p.id = id;
    p.name = id + QStringLiteral(" server");
    p.host = host;
    p.port = port;
    return p;
}

// A shown window writing below `dir`, with `profile` saved and selected.
inline std::unique_ptr<ui::MainWindow> windowOn(const QTemporaryDir& dir, const ui::ConnectionProfile& profile)
{
    auto window = std::make_unique<ui::MainWindow>(temporaryContext(dir));
    window->resize(1400, 950);
    window->show();
    window->saveProfile(profile, QString(), false);
    if (!window->selectTarget(profile.id))
        qWarning("the profile %s is missing", qPrintable(profile.id));
    return window;
}

// SET on `connections` connections, `requests` requests over 100 keys: a run of a moment.
inline ui::WorkloadSettings smallSetWorkload(int connections, quint64 requests)
{
    ui::WorkloadSettings settings;
    settings.connections = connections;
    settings.tests = QStringLiteral("set");
    settings.keyspace = 100;
    settings.amount = ui::WorkloadSettings::Amount::Requests;
    settings.requests = requests;
    return settings;
}

// Where a run's record arrives once the window has shown it (runCompleted).
inline std::shared_ptr<std::optional<ui::RunRecord>> whenRunCompleted(ui::MainWindow& window)
{
    auto done = std::make_shared<std::optional<ui::RunRecord>>();
    QObject::connect(&window, &ui::MainWindow::runCompleted, &window, [done](const ui::RunRecord& r) { *done = r; });
    return done;
}

inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace tacho::test
