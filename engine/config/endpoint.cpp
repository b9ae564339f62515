#include "engine/config/endpoint.h"

namespace tacho::engine {

std::string Endpoint::describe() const
{
    if (!unixSocket.empty())
        return "unix:" + unixSocket;
    if (host.find(':') != std::string::npos)
        return "[" + host + "]:" + std::to_string(port);
    return host + ":" + std::to_string(port);
}

} // namespace tacho::engine
