#include "ui/model/bounded_file.h"

#include <QFile>

#include <cerrno>
#include <new>
#include <system_error>
#include <string>
#include <sys/stat.h>

#include "engine/report/run_file_reader.h"
#include "engine/resp/printable_text.h"

namespace tacho::ui {

std::uint64_t maxRunFileBytes()
{
    return engine::kMaxRunFileBytes;
}

namespace {

// A file compiled into the program (":/presets/…"): no stat, no pipe; the
// same size limit.
std::optional<QByteArray> readResource(const QString& path, std::uint64_t maxBytes, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || std::uint64_t(file.size()) > maxBytes) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.isOpen() ? QStringLiteral("too large to read") : file.errorString());
        return std::nullopt;
    }
    return file.readAll();
}

} // namespace

std::optional<QByteArray> readBoundedFile(const QString& path, std::uint64_t maxBytes, QString* error)
{
    const auto fail = [&](const std::string& why) -> std::optional<QByteArray> {
        if (error)   // the path is outside text too: printed escaped
            *error = QString::fromStdString(engine::printable(why));
        return std::nullopt;
    };
    if (path.startsWith(QLatin1Char(':')))
        return readResource(path, maxBytes, error);
    const std::string local = path.toLocal8Bit().toStdString();
    // Looked at before it is opened: opening a named pipe for reading would
    // wait for a writer (readTextFile checks the type only once it is open).
    struct stat st {};
    if (::stat(local.c_str(), &st) != 0)
        return fail(local + ": cannot read: " + std::generic_category().message(errno));
    if (!S_ISREG(st.st_mode))
        return fail(local + ": not a regular file");
    try {
        std::string text;
        std::string why;
        if (!engine::readTextFile(local, text, &why, maxBytes))
            return fail(why);
        return QByteArray::fromStdString(text);
    } catch (const std::bad_alloc&) {
        return fail(local + ": not enough memory to read it (" + std::to_string(st.st_size) + " bytes)");
    }
}

} // namespace tacho::ui
