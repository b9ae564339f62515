#pragma once
// Test helper: a RunConfig aimed at a loopback fixture (RedisServer, ScriptedServer,
// FakeServer, NutcrackerProxy: anything with host() and port()), for suites that drive the
// engine directly. The caller adds the workload.
#include <string>

#include "engine/config/run_config.h"

namespace tacho::test {

template <class Server>
tacho::engine::RunConfig runConfigFor(const Server& server, int connectTimeoutMs = 5000)
{
    tacho::engine::RunConfig config;
    config.endpoint.host = server.host().toStdString();
    config.endpoint.port = server.port();
    config.connectTimeoutMs = connectTimeoutMs;
    return config;
}

} // namespace tacho::test
