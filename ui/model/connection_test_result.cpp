#include "ui/model/connection_test_result.h"

#include <QStringList>

#include "ui/model/number_format.h"

namespace tacho::ui {

QString ConnectionTestResult::describe() const
{
    if (!ok)
        return error;
    QStringList parts { server };
    if (!mode.isEmpty())
        parts << (clusterNodes > 0 ? QStringLiteral("%1 (%2 nodes)").arg(mode).arg(clusterNodes) : mode);
    if (!role.isEmpty())
        parts << role;
    if (!tls.isEmpty())
        parts << tls;
    if (roundTripMs > 0)   // none when the target does not allow PING (the notes say so)
        parts << QStringLiteral("round trip %1").arg(NumberFormat::millisecondsWithUnit(roundTripMs));
    QString text = parts.join(QStringLiteral(" · "));
    if (!notes.isEmpty())
        text += QStringLiteral(" (") + notes.join(QStringLiteral("; ")) + QLatin1Char(')');
    return text;
}

} // namespace tacho::ui
