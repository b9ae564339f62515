#include "ui/targets/remote_write_guard.h"

#include <QCoreApplication>
#include <QHostAddress>

namespace tacho::ui {

bool isLoopbackTarget(const ConnectionProfile& target)
{
    if (target.isSandbox() || !target.unixSocket.isEmpty())
        return true;
    const QString host = target.host.trimmed();
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')) ? host.mid(1, host.size() - 2) : host);
    return !address.isNull() && address.isLoopback();
}

void confineToConfirmedMachine(const ConnectionProfile& target, engine::RunConfig& config)
{
    config.clusterStaysOnLoopback = target.cluster && isLoopbackTarget(target);
}

QString remoteWriteQuestion(const ConnectionProfile& target)
{
    return QCoreApplication::translate("tacho::ui::RemoteWriteGuard",
                                       "The benchmark writes data (SET, LPUSH, HSET, … over its keyspace) to \"%1\" at %2, "
                                       "which is not on this machine.\n\nRun it against that server?")
        .arg(target.name, target.address());
}

} // namespace tacho::ui
