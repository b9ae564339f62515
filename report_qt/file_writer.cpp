#include "report_qt/file_writer.h"

#include <QBuffer>
#include <QImage>

#include "engine/report/atomic_file.h"

namespace tacho::report {

bool writeOutputFile(const QString& path, const QByteArray& content, QString* error)
{
    std::string why;
    if (engine::writeFileAtomically(path.toStdString(), content.toStdString(), &why))
        return true;
    if (error)
        *error = QString::fromStdString(why);
    return false;
}

bool writePngFile(const QString& path, const QImage& image, QString* error)
{
    QByteArray png;
    QBuffer buffer(&png);
    if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG")) {
        if (error)
            *error = QStringLiteral("cannot write %1: the image could not be encoded as PNG").arg(path);
        return false;
    }
    return writeOutputFile(path, png, error);
}

} // namespace tacho::report
