// tacho: the workbench. Wires ui/ to the engine; everything else lives in ui/.
#include <QApplication>
#include <QDir>
#include <QTextStream>

#include "ui/app_context.h"
#include "ui/main_window.h"
#include "ui/script_options.h"
#include "ui/scripted_session.h"

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tacho"));
    QApplication::setApplicationDisplayName(QStringLiteral("Tacho"));
    QApplication::setApplicationVersion(QStringLiteral(TACHO_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("dev.tacho.Tacho"));

    QString error;
    bool help = false;
    const auto options = tacho::ui::ScriptOptions::parse(app.arguments(), &error, &help);
    if (!options) {
        QTextStream(help ? stdout : stderr) << error << Qt::endl;
        return help ? 0 : 2;
    }

    tacho::ui::AppContext context = tacho::ui::AppContext::standard();
    if (!options->historyDir.isEmpty())
        context.historyDir = QDir(options->historyDir).absolutePath();
    if (!options->configDir.isEmpty()) {
        const QDir config(options->configDir);
        context.profilesDir = config.absoluteFilePath(QStringLiteral("profiles"));
        context.settingsFile = config.absoluteFilePath(QStringLiteral("tacho.conf"));
    }
    tacho::ui::MainWindow window(context);
    window.show();

    std::unique_ptr<tacho::ui::ScriptedSession> session;
    if (options->active()) {
        session = std::make_unique<tacho::ui::ScriptedSession>(&window, *options);
        QObject::connect(session.get(), &tacho::ui::ScriptedSession::finished, &app, [&app](int code) {
            QApplication::exit(code);
        });
        session->start();
    }
    return QApplication::exec();
}
