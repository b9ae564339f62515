#pragma once
// What "Test connection" found: the server, or the specific error.
#include <QMap>
#include <QString>
#include <QStringList>

namespace tacho::ui {

struct ConnectionTestResult {
    bool ok = false;
    QString error;                  // the engine's message: refused, timed out, NOAUTH, …
    QString server;                 // "redis 7.0.15"
    QString mode;                   // INFO server redis_mode: standalone, cluster, sentinel
    QString role;                   // INFO replication role: master, slave
    int clusterNodes = 0;           // CLUSTER NODES lines, in cluster mode
    double roundTripMs = 0;         // median of a few PINGs
    QString tls;                    // "TLSv1.3 TLS_AES_256_GCM_SHA384"; empty without TLS
    QStringList notes;              // what could not be read (INFO refused, …)
    QMap<QString, QString> serverInfo;

    // "redis 7.0.15 · standalone · master · 0.084 ms" or the error.
    QString describe() const;
};

} // namespace tacho::ui
