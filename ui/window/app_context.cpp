#include "ui/window/app_context.h"

#include <QDir>
#include <QStandardPaths>

namespace tacho::ui {

AppContext AppContext::standard()
{
    AppContext c;
    const QDir data(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation));
    const QDir config(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation));
    c.historyDir = data.filePath(QStringLiteral("runs"));
    c.profilesDir = config.filePath(QStringLiteral("profiles"));
    c.settingsFile = config.filePath(QStringLiteral("tacho.conf"));
    return c;
}

} // namespace tacho::ui
