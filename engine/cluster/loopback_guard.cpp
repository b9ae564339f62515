#include "engine/cluster/loopback_guard.h"

#include <arpa/inet.h>
#include <cstring>

namespace tacho::engine {

bool isLoopbackHost(std::string_view host)
{
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    if (host.empty() || host.size() > INET6_ADDRSTRLEN)
        return false;
    constexpr std::string_view kLocalhost = "localhost";
    if (host.size() == kLocalhost.size()) {
        bool same = true;
        for (std::size_t i = 0; i < host.size() && same; ++i)
            same = (host[i] | 0x20) == kLocalhost[i];
        if (same)
            return true;
    }
    const std::string text(host);
    in_addr v4 {};
    if (inet_pton(AF_INET, text.c_str(), &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) == 127;
    in6_addr v6 {};
    if (inet_pton(AF_INET6, text.c_str(), &v6) != 1)
        return false;
    if (IN6_IS_ADDR_LOOPBACK(&v6))
        return true;
    return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
}

std::string offMachineNodeMessage(const ClusterNode& node)
{
    return "cluster node " + node.address() + " is not on this machine; the run was confirmed for this machine only";
}

bool allNodesOnLoopback(const SlotMap& map, std::string* error)
{
    for (const ClusterNode& node : map.nodes()) {
        if (!isLoopbackHost(node.host)) {
            if (error)
                *error = offMachineNodeMessage(node);
            return false;
        }
    }
    return true;
}

} // namespace tacho::engine
