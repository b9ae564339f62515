#include "ui/bridges/cleanup_bridge.h"

#include <QMetaObject>

#include "engine/report/run_file.h"
#include "engine/run/key_cleanup.h"

namespace tacho::ui {

CleanupBridge::CleanupBridge(QObject* parent) : QObject(parent) {}

CleanupBridge::~CleanupBridge()
{
    if (m_thread.joinable())
        m_thread.join();
}

bool CleanupBridge::start(engine::RunConfig config, const QString& runFile)
{
    if (m_running)
        return false;
    if (m_thread.joinable())
        m_thread.join();
    m_running = true;
    m_thread = std::thread([this, config = std::move(config), path = runFile.toStdString()] {
        const engine::CleanupResult result = engine::removeKeysMatching(config, engine::cleanupPatterns(config));
        std::string recordError;
        if (!path.empty())
            engine::addRunFileSection(path, "cleanup", engine::cleanupToJson(result), &recordError);
        const bool completed = result.completed();
        const QString summary = QString::fromStdString(engine::describeCleanup(result));
        const QString error = QString::fromStdString(recordError);
        // Queued to the GUI thread; the destructor joins before `this` goes.
        QMetaObject::invokeMethod(
            this,
            [this, completed, summary, error] {
                if (m_thread.joinable())
                    m_thread.join();
                m_running = false;
                Q_EMIT finished(completed, summary, error);
            },
            Qt::QueuedConnection);
    });
    return true;
}

} // namespace tacho::ui
