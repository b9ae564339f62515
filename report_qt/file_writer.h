#pragma once
// Qt's side of the one rule for output files (engine/report/atomic_file.h):
// what Qt draws or serialises is put together in memory, then written by the
// engine's writer, so exports from the workbench and `report --pdf/--png`
// get the same modes, link checks and error handling as every other file.
#include <QByteArray>
#include <QString>

class QImage;

namespace tacho::report {

// False with "cannot write PATH: why" in *error.
bool writeOutputFile(const QString& path, const QByteArray& content, QString* error);
// The image as PNG.
bool writePngFile(const QString& path, const QImage& image, QString* error);

} // namespace tacho::report
