// tacho: the workbench. Wires ui/ to the engine; everything else lives in ui/.
#include <QApplication>
#include <QDir>
#include <QSocketNotifier>
#include <QTextStream>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

#include "engine/cli/secrets.h"

#include "ui/window/app_context.h"
#include "ui/window/main_window.h"
#include "ui/window/script_options.h"
#include "ui/window/scripted_session.h"
#include "ui/model/shell_words.h"

namespace {

// Overwrites the passwords of a --command-line line in the process's own
// argv (what ps and /proc/<pid>/cmdline show), once Qt has copied it. The
// engine's rule (engine/cli/secrets.h) says which words are passwords; the
// raw text is blanked where they occur in it, or whole when one is not
// there verbatim (quoted with escapes) or the line does not split.
void hideCommandLineSecrets(const std::vector<char*>& argv)
{
    for (std::size_t i = 1; i < argv.size(); ++i) {
        char* line = nullptr;
        if (std::strcmp(argv[i], "--command-line") == 0 && i + 1 < argv.size())
            line = argv[i + 1];
        else if (std::strncmp(argv[i], "--command-line=", 15) == 0)
            line = argv[i] + 15;
        if (!line)
            continue;
        const std::size_t length = std::strlen(line);
        QString error;
        const QStringList split = tacho::ui::ShellWords::split(QString::fromLocal8Bit(line), &error);
        std::vector<std::string> words;
        for (const QString& word : split)
            words.push_back(word.toStdString());
        bool blankAll = !error.isEmpty();
        std::string text(line, length);
        for (const std::string& secret : tacho::engine::secretsOfWorkloadLine(words)) {
            std::size_t at = text.find(secret);
            if (at == std::string::npos)
                blankAll = true;
            for (; at != std::string::npos; at = text.find(secret, at + secret.size()))
                std::fill(line + at, line + at + secret.size(), '*');
        }
        if (blankAll)
            std::fill(line, line + length, '*');
    }
}

int g_signalPipe[2] = { -1, -1 };

extern "C" void onTerminatingSignal(int signal)
{
    const int saved = errno;
    const char byte = char(signal);
    [[maybe_unused]] const ssize_t n = ::write(g_signalPipe[1], &byte, 1);   // async-signal-safe
    errno = saved;
}

// Ctrl+C in the terminal that started us, kill, and a closed terminal or SSH
// session end the workbench as closing its window does: a run under way is
// stopped and saved first. The handler only writes to a pipe; the event loop
// reads it (the self-pipe pattern). Signals ignored at start (nohup) stay so.
void closeOnSignals(QWidget* window)
{
    if (::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    auto* notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, window);
    QObject::connect(notifier, &QSocketNotifier::activated, window, [window] {
        char bytes[64];
        while (::read(g_signalPipe[0], bytes, sizeof bytes) > 0) {
        }
        window->close();
    });
    struct sigaction action {};
    action.sa_handler = onTerminatingSignal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (const int signal : { SIGINT, SIGTERM, SIGHUP }) {
        struct sigaction previous {};
        if (::sigaction(signal, nullptr, &previous) == 0 && previous.sa_handler != SIG_IGN)
            ::sigaction(signal, &action, nullptr);
    }
}

void nameApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("tacho"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TACHO_VERSION));
}

bool mentionsHelpOrVersion(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        for (const char* word : { "--help", "-h", "-help", "--version", "-version" })
            if (std::strcmp(argv[i], word) == 0)
                return true;
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    // --help and --version answer without a display: a QCoreApplication
    // parses them (QApplication would fail with no display to connect to).
    if (mentionsHelpOrVersion(argc, argv)) {
        QCoreApplication core(argc, argv);
        nameApplication();
        QString text;
        bool help = false;
        if (!tacho::ui::ScriptOptions::parse(core.arguments(), &text, &help) && help) {
            QTextStream(stdout) << text << Qt::endl;
            return 0;
        }
    }   // otherwise ("--help" was a value) the workbench starts as usual

    const std::vector<char*> originalArgv(argv, argv + argc);   // Qt may drop its own options from argv
    QApplication app(argc, argv);
    nameApplication();
    QApplication::setApplicationDisplayName(QStringLiteral("Tacho"));
    QApplication::setDesktopFileName(QStringLiteral("dev.tacho.Tacho"));

    QString error;
    bool help = false;
    const auto options = tacho::ui::ScriptOptions::parse(app.arguments(), &error, &help);
    hideCommandLineSecrets(originalArgv);
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
    closeOnSignals(&window);

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
