#include "engine/run/run_config.h"

namespace tacho::engine {

std::string Endpoint::describe() const
{
    if (!unixSocket.empty())
        return "unix:" + unixSocket;
    if (host.find(':') != std::string::npos)
        return "[" + host + "]:" + std::to_string(port);
    return host + ":" + std::to_string(port);
}

RunConfig withoutSecrets(RunConfig config)
{
    if (!config.password.empty())
        config.passwordSet = true;
    config.password.clear();
    return config;
}

} // namespace tacho::engine
