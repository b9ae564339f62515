#include "support/redis_cluster.h"

#include <QDeadlineTimer>
#include <QDebug>
#include <QProcess>
#include <QStandardPaths>
#include <QThread>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

#include "support/redis_server.h"

namespace tacho::test {

namespace {

constexpr int kSlots = 16384;
constexpr int kPollMs = 100;

void setError(QString* error, const QString& message)
{
    if (error)
        *error = message;
}

// CLUSTER INFO as field → value.
QMap<QString, QString> parseInfo(const QByteArray& text)
{
    QMap<QString, QString> out;
    for (QByteArray line : text.split('\n')) {
        line = line.trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            out.insert(QString::fromUtf8(line.left(colon)), QString::fromUtf8(line.mid(colon + 1)));
    }
    return out;
}

// INFO replication of a replica: is its link to the master up?
bool replicaLinkUp(const RedisServer& server)
{
    const QMap<QString, QString> info = server.info(QStringLiteral("replication"));
    return info.value(QStringLiteral("role")) != QLatin1String("slave")
           || info.value(QStringLiteral("master_link_status")) == QLatin1String("up");
}

// A node's view of everyone's role from CLUSTER NODES: "id master" / "id replica-of <id>",
// sorted; or a problem ("id handshake", "id fail?") when a flag says the view is not settled.
QStringList rolesSeenBy(const RedisServer& server, QString* problem)
{
    QStringList out;
    const RedisReply reply = server.command({QStringLiteral("CLUSTER"), QStringLiteral("NODES")});
    if (reply.type != RedisReply::Type::String) {
        *problem = QStringLiteral("CLUSTER NODES → ") + reply.describe();
        return out;
    }
    for (const QByteArray& line : reply.text.split('\n')) {
        const QList<QByteArray> fields = line.trimmed().split(' ');
        if (fields.size() < 8)
            continue;
        const QString id = QString::fromUtf8(fields[0]);
        for (const QByteArray& flag : fields[2].split(',')) {
            if (flag == "fail" || flag == "fail?" || flag == "handshake" || flag == "noaddr") {
                *problem = QStringLiteral("sees node %1 as %2").arg(id, QString::fromUtf8(flag));
                return out;
            }
        }
        if (fields[7] != "connected" && !fields[2].split(',').contains("myself")) {
            *problem = QStringLiteral("its link to node %1 is %2").arg(id, QString::fromUtf8(fields[7]));
            return out;
        }
        out.append(fields[3] == "-" ? id + QStringLiteral(" master")
                                    : id + QStringLiteral(" replica-of ") + QString::fromUtf8(fields[3]));
    }
    out.sort();
    return out;
}

QString roleOf(const RedisServer& server)
{
    const RedisReply reply = server.command({QStringLiteral("ROLE")});
    if (reply.type != RedisReply::Type::Array || reply.elements.isEmpty())
        return {};
    return QString::fromUtf8(reply.elements[0].text);
}

} // namespace

RedisCluster::RedisCluster() : RedisCluster(Options{}) {}

RedisCluster::RedisCluster(Options options) : m_options(std::move(options)) {}

RedisCluster::~RedisCluster()
{
    stop();
}

bool RedisCluster::start(QString* error)
{
    QString ignored;
    if (!error)
        error = &ignored;
    if (isRunning()) {
        *error = QStringLiteral("RedisCluster::start: already running");
        return false;
    }
    if (m_options.masters < 3) {
        // redis-cli --cluster create refuses fewer than 3 masters.
        *error = QStringLiteral("RedisCluster: a cluster needs at least 3 masters (got %1)").arg(m_options.masters);
        return false;
    }
    if (QStandardPaths::findExecutable(QStringLiteral("redis-cli")).isEmpty()) {
        *error = QStringLiteral("redis-cli not found: ./test.sh installs it (apt-get install redis-tools)");
        return false;
    }
    m_servers.clear();
    const int total = m_options.masters * (1 + m_options.replicasPerMaster);
    for (int i = 0; i < total; ++i) {
        RedisServer::Options nodeOptions;
        nodeOptions.maxPort = kMaxPort;
        nodeOptions.extraArgs = QStringList{
            QStringLiteral("--cluster-enabled"), QStringLiteral("yes"),
            QStringLiteral("--cluster-config-file"), QStringLiteral("nodes.conf"),
            QStringLiteral("--cluster-node-timeout"), QString::number(m_options.nodeTimeoutMs),
            // Replicas sync at once instead of after the default 5 s wait for more replicas.
            QStringLiteral("--repl-diskless-sync-delay"), QStringLiteral("0"),
        } + m_options.extraArgs;
        auto server = std::make_unique<RedisServer>(nodeOptions);
        QString nodeError;
        if (!server->start(&nodeError)) {
            *error = QStringLiteral("cluster node %1 of %2 did not start: %3").arg(i + 1).arg(total).arg(nodeError);
            stop();
            return false;
        }
        m_servers.push_back(std::move(server));
    }
    if (!createCluster(error)) {
        stop();
        return false;
    }
    QString waitError;
    if (!waitUntilStable(m_options.readyTimeoutMs, &waitError)) {
        *error = QStringLiteral("the cluster did not become ready: %1").arg(waitError);
        stop();
        return false;
    }
    return true;
}

bool RedisCluster::createCluster(QString* error)
{
    QStringList args{QStringLiteral("--cluster"), QStringLiteral("create")};
    for (const auto& server : m_servers)
        args << QStringLiteral("%1:%2").arg(server->host()).arg(server->port());
    args << QStringLiteral("--cluster-replicas") << QString::number(m_options.replicasPerMaster)
         << QStringLiteral("--cluster-yes");
    const CliResult result = redisCli(args);
    if (!result.ok()) {
        setError(error, QStringLiteral("redis-cli %1 %2 (exit %3):\n%4%5")
                            .arg(args.join(QLatin1Char(' ')),
                                 result.timedOut ? QStringLiteral("timed out") : QStringLiteral("failed"))
                            .arg(result.exitCode)
                            .arg(QString::fromUtf8(result.out.right(3000)), QString::fromUtf8(result.err.right(2000))));
        return false;
    }
    return true;
}

void RedisCluster::stop()
{
    // SIGTERM to every node first, so they shut down in parallel; then stop each by PID
    // (RedisServer::stop: wait, SIGKILL after 5 s).
    for (const auto& server : m_servers)
        if (server->isRunning() && server->pid() > 0)
            ::kill(static_cast<pid_t>(server->pid()), SIGTERM);
    for (const auto& server : m_servers)
        server->stop();
    m_servers.clear();
}

bool RedisCluster::isRunning() const
{
    if (m_servers.empty())
        return false;
    for (const auto& server : m_servers)
        if (!server->isRunning())
            return false;
    return true;
}

QList<quint16> RedisCluster::ports() const
{
    QList<quint16> out;
    for (const auto& server : m_servers)
        out.append(server->port());
    return out;
}

quint16 RedisCluster::seedPort() const
{
    return m_servers.empty() ? 0 : m_servers.front()->port();
}

RedisServer* RedisCluster::server(quint16 port) const
{
    for (const auto& server : m_servers)
        if (server->port() == port)
            return server.get();
    return nullptr;
}

QString RedisCluster::nodeId(quint16 port) const
{
    const RedisServer* node = server(port);
    if (!node)
        return {};
    return node->commandString({QStringLiteral("CLUSTER"), QStringLiteral("MYID")}).value_or(QString());
}

QList<RedisCluster::Node> RedisCluster::nodes() const
{
    QList<Node> out;
    for (const auto& server : m_servers) {
        Node node;
        node.port = server->port();
        node.pid = server->pid();
        const RedisReply reply = server->command({QStringLiteral("CLUSTER"), QStringLiteral("NODES")});
        // <id> <ip:port@cport> <flags> <master> <ping> <pong> <epoch> <link> <slot>…
        for (const QByteArray& line : reply.text.split('\n')) {
            const QList<QByteArray> fields = line.trimmed().split(' ');
            if (fields.size() < 8 || !fields[2].split(',').contains("myself"))
                continue;
            node.id = QString::fromUtf8(fields[0]);
            node.master = fields[2].split(',').contains("master");
            if (fields[3] != "-")
                node.masterId = QString::fromUtf8(fields[3]);
            for (qsizetype i = 8; i < fields.size(); ++i) {
                const QByteArray& slot = fields[i];
                if (slot.isEmpty() || slot.startsWith('['))   // [slot->-node] migration markers
                    continue;
                const qsizetype dash = slot.indexOf('-');
                const int first = (dash < 0 ? slot : slot.left(dash)).toInt();
                const int last = dash < 0 ? first : slot.mid(dash + 1).toInt();
                node.slotRanges.append({first, last});
            }
        }
        out.append(node);
    }
    return out;
}

QList<quint16> RedisCluster::masterPorts() const
{
    QList<quint16> out;
    for (const Node& node : nodes())
        if (node.master)
            out.append(node.port);
    return out;
}

QList<quint16> RedisCluster::replicaPorts() const
{
    QList<quint16> out;
    for (const Node& node : nodes())
        if (!node.master)
            out.append(node.port);
    return out;
}

QVector<quint16> RedisCluster::slotOwners(quint16 askPort) const
{
    QVector<quint16> owners(kSlots, 0);
    const RedisServer* node = server(askPort != 0 ? askPort : seedPort());
    if (!node)
        return owners;
    const RedisReply reply = node->command({QStringLiteral("CLUSTER"), QStringLiteral("SLOTS")});
    if (reply.type != RedisReply::Type::Array) {
        qWarning().noquote() << "RedisCluster::slotOwners: CLUSTER SLOTS →" << reply.describe();
        return owners;
    }
    for (const RedisReply& entry : reply.elements) {
        if (entry.elements.size() < 3 || entry.elements[2].elements.size() < 2)
            continue;
        const long long first = entry.elements[0].integer;
        const long long last = entry.elements[1].integer;
        const auto port = static_cast<quint16>(entry.elements[2].elements[1].integer);
        for (long long slot = first; slot <= last && slot < kSlots; ++slot)
            owners[static_cast<qsizetype>(slot)] = port;
    }
    return owners;
}

quint16 RedisCluster::portOfSlot(int slot) const
{
    if (slot < 0 || slot >= kSlots)
        return 0;
    return slotOwners().value(slot);
}

int RedisCluster::keySlot(const QByteArray& key) const
{
    if (m_servers.empty())
        return -1;
    const RedisReply reply = m_servers.front()->commandBytes({"CLUSTER", "KEYSLOT", key});
    return reply.type == RedisReply::Type::Integer ? static_cast<int>(reply.integer) : -1;
}

quint16 RedisCluster::portOfKey(const QByteArray& key) const
{
    return portOfSlot(keySlot(key));
}

QString RedisCluster::stableProblem() const
{
    if (!isRunning())
        return QStringLiteral("not every node is running");
    const int total = static_cast<int>(m_servers.size());
    QVector<quint16> reference;
    QStringList referenceRoles;
    for (const auto& server : m_servers) {
        const QString where = QStringLiteral("node %1").arg(server->port());
        const RedisReply reply = server->command({QStringLiteral("CLUSTER"), QStringLiteral("INFO")});
        if (reply.type != RedisReply::Type::String)
            return where + QStringLiteral(": CLUSTER INFO → ") + reply.describe();
        const QMap<QString, QString> info = parseInfo(reply.text);
        if (info.value(QStringLiteral("cluster_state")) != QLatin1String("ok"))
            return where + QStringLiteral(": cluster_state:") + info.value(QStringLiteral("cluster_state"));
        if (info.value(QStringLiteral("cluster_slots_ok")).toInt() != kSlots)
            return where + QStringLiteral(": cluster_slots_ok:") + info.value(QStringLiteral("cluster_slots_ok"));
        if (info.value(QStringLiteral("cluster_known_nodes")).toInt() != total)
            return where + QStringLiteral(": cluster_known_nodes:%1 of %2")
                               .arg(info.value(QStringLiteral("cluster_known_nodes")))
                               .arg(total);
        const QVector<quint16> owners = slotOwners(server->port());
        if (owners.contains(quint16(0)))
            return where + QStringLiteral(": CLUSTER SLOTS leaves slots without a node");
        if (reference.isEmpty()) {
            reference = owners;
        } else if (owners != reference) {
            for (int slot = 0; slot < kSlots; ++slot)
                if (owners[slot] != reference[slot])
                    return where + QStringLiteral(": disagrees with node %1 on slot %2 (%3 vs %4)")
                                       .arg(m_servers.front()->port())
                                       .arg(slot)
                                       .arg(owners[slot])
                                       .arg(reference[slot]);
        }
        QString rolesProblem;
        const QStringList roles = rolesSeenBy(*server, &rolesProblem);
        if (!rolesProblem.isEmpty())
            return where + QStringLiteral(": ") + rolesProblem;
        if (referenceRoles.isEmpty())
            referenceRoles = roles;
        else if (roles != referenceRoles)
            return where + QStringLiteral(": sees other roles than node %1 (%2 vs %3)")
                               .arg(m_servers.front()->port())
                               .arg(roles.join(QLatin1String(", ")), referenceRoles.join(QLatin1String(", ")));
        if (!replicaLinkUp(*server))
            return where + QStringLiteral(": replication link to its master is not up");
    }
    return {};
}

bool RedisCluster::waitUntilStable(int timeoutMs, QString* error) const
{
    QDeadlineTimer deadline(timeoutMs);
    QString problem;
    for (;;) {
        problem = stableProblem();
        if (problem.isEmpty())
            return true;
        if (deadline.hasExpired())
            break;
        QThread::msleep(kPollMs);
    }
    setError(error, QStringLiteral("not stable within %1 ms: %2").arg(timeoutMs).arg(problem));
    return false;
}

bool RedisCluster::reshard(quint16 fromPort, quint16 toPort, int slotCount, QString* error)
{
    const QString fromId = nodeId(fromPort);
    const QString toId = nodeId(toPort);
    if (fromId.isEmpty() || toId.isEmpty()) {
        setError(error, QStringLiteral("reshard: no node id for port %1 or %2").arg(fromPort).arg(toPort));
        return false;
    }
    const QStringList args{
        QStringLiteral("--cluster"), QStringLiteral("reshard"),
        QStringLiteral("%1:%2").arg(host()).arg(seedPort()),
        QStringLiteral("--cluster-from"), fromId,
        QStringLiteral("--cluster-to"), toId,
        QStringLiteral("--cluster-slots"), QString::number(slotCount),
        QStringLiteral("--cluster-yes"),
    };
    const CliResult result = redisCli(args);
    if (!result.ok()) {
        setError(error, QStringLiteral("redis-cli %1 %2 (exit %3):\n%4%5")
                            .arg(args.join(QLatin1Char(' ')),
                                 result.timedOut ? QStringLiteral("timed out") : QStringLiteral("failed"))
                            .arg(result.exitCode)
                            .arg(QString::fromUtf8(result.out.right(3000)), QString::fromUtf8(result.err.right(2000))));
        return false;
    }
    QString waitError;
    if (!waitUntilStable(kSettleTimeoutMs, &waitError)) {
        setError(error, QStringLiteral("after the reshard: %1").arg(waitError));
        return false;
    }
    return true;
}

bool RedisCluster::failover(quint16 replicaPort, QString* error)
{
    RedisServer* replica = server(replicaPort);
    if (!replica) {
        setError(error, QStringLiteral("failover: port %1 is not a node of this cluster").arg(replicaPort));
        return false;
    }
    QDeadlineTimer deadline(kSettleTimeoutMs);
    while (!replicaLinkUp(*replica)) {
        if (deadline.hasExpired()) {
            setError(error, QStringLiteral("failover: the replica on %1 never got its link to the master up").arg(replicaPort));
            return false;
        }
        QThread::msleep(kPollMs);
    }
    if (roleOf(*replica) != QLatin1String("slave")) {
        setError(error, QStringLiteral("failover: node %1 is not a replica (ROLE %2)").arg(replicaPort).arg(roleOf(*replica)));
        return false;
    }
    // A manual failover gives up after 5 s if the master does not cooperate: try again then,
    // within the deadline.
    QString lastReply;
    while (!deadline.hasExpired()) {
        const RedisReply reply = replica->command({QStringLiteral("CLUSTER"), QStringLiteral("FAILOVER")});
        lastReply = reply.describe();
        if (reply.type != RedisReply::Type::Status) {
            setError(error, QStringLiteral("failover: CLUSTER FAILOVER on %1 → %2").arg(replicaPort).arg(lastReply));
            return false;
        }
        QDeadlineTimer attempt(6000);
        while (!attempt.hasExpired() && !deadline.hasExpired()) {
            if (roleOf(*replica) == QLatin1String("master")) {
                QString waitError;
                if (!waitUntilStable(static_cast<int>(qMax<qint64>(deadline.remainingTime(), 1000)), &waitError)) {
                    setError(error, QStringLiteral("after the failover: %1").arg(waitError));
                    return false;
                }
                return true;
            }
            QThread::msleep(kPollMs);
        }
    }
    setError(error, QStringLiteral("failover: node %1 did not become master within %2 ms")
                        .arg(replicaPort)
                        .arg(kSettleTimeoutMs));
    return false;
}

quint64 RedisCluster::keysOnNode(quint16 port) const
{
    const RedisServer* node = server(port);
    if (!node)
        return 0;
    const long long size = node->dbSize();
    return size > 0 ? static_cast<quint64>(size) : 0;
}

QMap<QString, quint64> RedisCluster::commandStatsCalls(quint16 port) const
{
    const RedisServer* node = server(port);
    return node ? node->commandStatsCalls() : QMap<QString, quint64>();
}

void RedisCluster::flushAll() const
{
    for (const quint16 port : masterPorts())
        server(port)->flushAll();
}

void RedisCluster::resetStats() const
{
    for (const auto& server : m_servers)
        server->resetStats();
}

RedisCluster::CliResult RedisCluster::redisCli(const QStringList& args, const QByteArray& stdinData,
                                               int timeoutMs) const
{
    CliResult result;
    QProcess process;
    process.setProgram(QStandardPaths::findExecutable(QStringLiteral("redis-cli")));
    process.setArguments(args);
    const pid_t parent = ::getpid();
    process.setChildProcessModifier([parent] {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);   // never outlive the test
        if (::getppid() != parent)
            ::_exit(127);
    });
    process.start();
    if (!process.waitForStarted(10000)) {
        result.err = QStringLiteral("cannot start redis-cli: %1").arg(process.errorString()).toUtf8();
        return result;
    }
    if (!stdinData.isEmpty())
        process.write(stdinData);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        result.timedOut = true;
        process.kill();   // SIGKILL to the redis-cli we started
        process.waitForFinished(5000);
    }
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    if (!result.timedOut && process.exitStatus() == QProcess::NormalExit)
        result.exitCode = process.exitCode();
    return result;
}

} // namespace tacho::test
