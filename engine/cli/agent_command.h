#pragma once
// `tacho-cli agent --control redis://HOST:PORT [--name NAME]` (issue 21): a
// load machine that waits for orders on a control server (a stock
// redis-server), announces itself there with a heartbeat that expires, runs
// each order (the dialect's command line for its share, at the start time
// the order names) and posts its run file to the run's results stream.
//
// The target's password never comes with an order: the agent takes it from
// its own REDISCLI_AUTH.
//
// Its name is a claim on the control server (engine/fleet/fleet_claims.h).
//
// Exit status: 0 stopped by a signal, 1 the control server could not be
// reached at start, or another process took the name over while this one was
// stalled, 2 usage error or the name held by another live agent.
#include <span>
#include <string>

#include "engine/cli/redis_benchmark_command.h"
#include "engine/config/run_config.h"

namespace tacho::engine {

std::string agentUsage();
int runAgentCommand(std::span<const std::string> args, const CommandIo& io);

// The control server's connection settings from --control's URI
// (redis:// or rediss://, user and password in the URI as with -u).
RunConfig controlServerConfig(const std::string& uri);

} // namespace tacho::engine
