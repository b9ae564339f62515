#include "ui/model/bounded_file.h"

#include <QFile>

#include <new>
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
    // readTextFile opens without waiting on a pipe and refuses whatever is
    // not a regular file, naming it, as tacho-cli does.
    try {
        std::string text;
        std::string why;
        if (!engine::readTextFile(local, text, &why, maxBytes))
            return fail(why);
        return QByteArray::fromStdString(text);
    } catch (const std::bad_alloc&) {
        struct stat st {};
        const std::string size = ::stat(local.c_str(), &st) == 0 ? " (" + std::to_string(st.st_size) + " bytes)" : std::string();
        return fail(local + ": not enough memory to read it" + size);
    }
}

} // namespace tacho::ui
