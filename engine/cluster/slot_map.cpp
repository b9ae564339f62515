#include "engine/cluster/slot_map.h"

#include <algorithm>

namespace tacho::engine {

namespace {

bool fail(std::string* error, std::string message)
{
    if (error)
        *error = std::move(message);
    return false;
}

bool isStringLike(const RespValue& value)
{
    return value.type == ReplyType::BulkString || value.type == ReplyType::SimpleString
           || value.type == ReplyType::VerbatimString;
}

bool isAggregate(const RespValue& value)
{
    return value.type == ReplyType::Array || value.type == ReplyType::Map || value.type == ReplyType::Set;
}

// An integer, or a string of digits (some proxies send numbers as strings).
bool toInteger(const RespValue& value, std::int64_t& out)
{
    if (value.type == ReplyType::Integer) {
        out = value.integer;
        return true;
    }
    if (!isStringLike(value) || value.text.empty() || value.text.size() > 18)
        return false;
    std::int64_t number = 0;
    for (char c : value.text) {
        if (c < '0' || c > '9')
            return false;
        number = number * 10 + (c - '0');
    }
    out = number;
    return true;
}

bool validSlot(std::int64_t slot)
{
    return slot >= 0 && slot < kClusterSlots;
}

bool validPort(std::int64_t port)
{
    return port > 0 && port <= 65535;
}

// "?" (or null) means the node's address is unknown; "" means "where you asked".
enum class HostKind { Known, Empty, Unknown };

HostKind hostKind(const RespValue& value)
{
    if (value.isNull() || (isStringLike(value) && value.text == "?"))
        return HostKind::Unknown;
    if (!isStringLike(value))
        return HostKind::Unknown;
    return value.text.empty() ? HostKind::Empty : HostKind::Known;
}

// Field of a map, or of a flat key/value array (RESP2); nullptr if absent.
const RespValue* field(const RespValue& map, std::string_view name)
{
    for (std::size_t i = 0; i + 1 < map.elements.size(); i += 2) {
        const RespValue& key = map.elements[i];
        if (isStringLike(key) && key.text == name)
            return &map.elements[i + 1];
    }
    return nullptr;
}

std::string range(int first, int last)
{
    return first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
}

// Ranges of slots for which `predicate(slot)` holds: "0-5460, 6000".
template <class Predicate>
std::string slotRanges(Predicate predicate)
{
    std::string out;
    int start = -1;
    for (int slot = 0; slot <= kClusterSlots; ++slot) {
        const bool in = slot < kClusterSlots && predicate(slot);
        if (in && start < 0)
            start = slot;
        if (!in && start >= 0) {
            if (!out.empty())
                out += ", ";
            out += range(start, slot - 1);
            start = -1;
        }
    }
    return out;
}

} // namespace

std::string ClusterNode::address() const
{
    const std::string portText = std::to_string(port);
    if (host.find(':') != std::string::npos)
        return "[" + host + "]:" + portText;
    return host + ":" + portText;
}

SlotMap::SlotMap()
{
    m_owner.fill(static_cast<std::int16_t>(kNoNode));
}

void SlotMap::clear()
{
    m_nodes.clear();
    m_owner.fill(static_cast<std::int16_t>(kNoNode));
}

int SlotMap::findNode(std::string_view host, std::uint16_t port) const
{
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].port == port && m_nodes[i].host == host)
            return static_cast<int>(i);
    return kNoNode;
}

void SlotMap::noteSource(int node, std::string_view source)
{
    if (node >= 0 && static_cast<std::size_t>(node) < m_nodes.size() && m_nodes[static_cast<std::size_t>(node)].source.empty())
        m_nodes[static_cast<std::size_t>(node)].source = std::string(source);
}

int SlotMap::addNode(const ClusterNode& node)
{
    const int existing = findNode(node.host, node.port);
    if (existing != kNoNode) {
        ClusterNode& known = m_nodes[static_cast<std::size_t>(existing)];
        if (!node.id.empty())
            known.id = node.id;
        known.master = node.master;
        return existing;
    }
    m_nodes.push_back(node);
    return static_cast<int>(m_nodes.size() - 1);
}

int SlotMap::update(std::uint16_t slot, std::string_view host, std::uint16_t port)
{
    int index = findNode(host, port);
    if (index == kNoNode) {
        ClusterNode node;
        node.host = std::string(host);
        node.port = port;
        node.master = true;
        m_nodes.push_back(std::move(node));
        index = static_cast<int>(m_nodes.size() - 1);
    } else {
        m_nodes[static_cast<std::size_t>(index)].master = true;
    }
    m_owner[slot & (kClusterSlots - 1)] = static_cast<std::int16_t>(index);
    return index;
}

void SlotMap::assign(std::uint16_t first, std::uint16_t last, int node)
{
    if (first >= kClusterSlots)
        return;
    last = std::min<std::uint16_t>(last, kClusterSlots - 1);
    for (int slot = first; slot <= last; ++slot)
        m_owner[static_cast<std::size_t>(slot)] = static_cast<std::int16_t>(node);
}

void SlotMap::adopt(const SlotMap& fresh)
{
    std::vector<std::int16_t> mapped(fresh.m_nodes.size());
    for (std::size_t i = 0; i < fresh.m_nodes.size(); ++i)
        mapped[i] = static_cast<std::int16_t>(addNode(fresh.m_nodes[i]));
    for (std::size_t slot = 0; slot < kClusterSlots; ++slot) {
        const std::int16_t owner = fresh.m_owner[slot];
        m_owner[slot] = owner >= 0 ? mapped[static_cast<std::size_t>(owner)] : static_cast<std::int16_t>(kNoNode);
    }
}

std::vector<int> SlotMap::servingNodes() const
{
    std::vector<bool> serving(m_nodes.size(), false);
    for (const std::int16_t owner : m_owner)
        if (owner >= 0)
            serving[static_cast<std::size_t>(owner)] = true;
    std::vector<int> out;
    for (std::size_t i = 0; i < serving.size(); ++i)
        if (serving[i])
            out.push_back(static_cast<int>(i));
    return out;
}

std::size_t SlotMap::slotCount(int node) const
{
    return static_cast<std::size_t>(std::count(m_owner.begin(), m_owner.end(), static_cast<std::int16_t>(node)));
}

bool SlotMap::complete() const
{
    return std::find(m_owner.begin(), m_owner.end(), static_cast<std::int16_t>(kNoNode)) == m_owner.end();
}

std::string SlotMap::missingSlots() const
{
    return slotRanges([this](int slot) { return m_owner[static_cast<std::size_t>(slot)] == kNoNode; });
}

std::string SlotMap::describe() const
{
    const std::vector<int> serving = servingNodes();
    std::string out = std::to_string(m_nodes.size()) + (m_nodes.size() == 1 ? " node" : " nodes");
    out += ", " + std::to_string(serving.size()) + " serving";
    if (complete())
        out += ", all 16384 slots";
    else
        out += ", missing slots " + missingSlots();
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const ClusterNode& node = m_nodes[i];
        out += i == 0 ? ": " : "; ";
        out += node.address() + " (" + (node.master ? "master" : "replica");
        const std::size_t count = slotCount(static_cast<int>(i));
        if (count > 0) {
            const auto index = static_cast<std::int16_t>(i);
            out += ", " + std::to_string(count) + " slots: "
                   + slotRanges([this, index](int slot) { return m_owner[static_cast<std::size_t>(slot)] == index; });
        }
        out += ")";
    }
    return out;
}

bool parseClusterSlots(const RespValue& reply, std::string_view replyHost, SlotMap& out, std::string* error)
{
    out.clear();
    if (reply.isError())
        return fail(error, "CLUSTER SLOTS failed: " + reply.text);
    if (!isAggregate(reply))
        return fail(error, "CLUSTER SLOTS: unexpected reply (not an array)");

    for (std::size_t r = 0; r < reply.elements.size(); ++r) {
        const RespValue& entry = reply.elements[r];
        const std::string where = "CLUSTER SLOTS entry " + std::to_string(r + 1);
        std::int64_t first = 0;
        std::int64_t last = 0;
        if (!isAggregate(entry) || entry.elements.size() < 3 || !toInteger(entry.elements[0], first)
            || !toInteger(entry.elements[1], last))
            return fail(error, where + ": expected [start, end, node, …]");
        if (!validSlot(first) || !validSlot(last) || first > last)
            return fail(error, where + ": bad slot range " + std::to_string(first) + "-" + std::to_string(last));

        int master = SlotMap::kNoNode;
        for (std::size_t n = 2; n < entry.elements.size(); ++n) {
            const RespValue& nodeValue = entry.elements[n];
            const bool isMaster = n == 2;
            std::int64_t port = 0;
            if (!isAggregate(nodeValue) || nodeValue.elements.size() < 2 || !toInteger(nodeValue.elements[1], port)
                || !validPort(port))
                return fail(error, where + ": expected [host, port, id, …] for a node");
            ClusterNode node;
            node.port = static_cast<std::uint16_t>(port);
            node.master = isMaster;
            if (nodeValue.elements.size() >= 3 && isStringLike(nodeValue.elements[2]))
                node.id = nodeValue.elements[2].text;
            switch (hostKind(nodeValue.elements[0])) {
            case HostKind::Known:
                node.host = nodeValue.elements[0].text;
                break;
            case HostKind::Empty:
                node.host = std::string(replyHost);
                break;
            case HostKind::Unknown:
                if (!isMaster)
                    continue;   // a replica we cannot reach anyway
                return fail(error, where + ": the master of slots " + range(static_cast<int>(first), static_cast<int>(last))
                                       + " has an unknown address ('?')");
            }
            const int index = out.addNode(node);
            if (isMaster)
                master = index;
        }
        out.assign(static_cast<std::uint16_t>(first), static_cast<std::uint16_t>(last), master);
    }
    return true;
}

bool parseClusterShards(const RespValue& reply, std::string_view replyHost, bool tls, SlotMap& out,
                        std::string* error)
{
    out.clear();
    if (reply.isError())
        return fail(error, "CLUSTER SHARDS failed: " + reply.text);
    if (!isAggregate(reply))
        return fail(error, "CLUSTER SHARDS: unexpected reply (not an array)");

    for (std::size_t s = 0; s < reply.elements.size(); ++s) {
        const RespValue& shard = reply.elements[s];
        const std::string where = "CLUSTER SHARDS shard " + std::to_string(s + 1);
        if (!isAggregate(shard))
            return fail(error, where + ": not a map");
        const RespValue* slots = field(shard, "slots");
        const RespValue* nodes = field(shard, "nodes");
        if (!slots || !nodes || !isAggregate(*slots) || !isAggregate(*nodes) || slots->elements.size() % 2 != 0)
            return fail(error, where + ": expected slots [start, end, …] and nodes");

        int master = SlotMap::kNoNode;
        std::string unknownMaster;
        for (std::size_t n = 0; n < nodes->elements.size(); ++n) {
            const RespValue& nodeValue = nodes->elements[n];
            if (!isAggregate(nodeValue))
                return fail(error, where + ": node " + std::to_string(n + 1) + " is not a map");
            const RespValue* role = field(nodeValue, "role");
            const RespValue* health = field(nodeValue, "health");
            const RespValue* id = field(nodeValue, "id");
            const RespValue* portValue = tls ? field(nodeValue, "tls-port") : nullptr;
            std::int64_t port = 0;
            if (!portValue || !toInteger(*portValue, port) || port == 0)
                portValue = field(nodeValue, "port");
            if (!portValue || !toInteger(*portValue, port) || !validPort(port))
                return fail(error, where + ": node " + std::to_string(n + 1) + " has no valid port");

            ClusterNode node;
            node.port = static_cast<std::uint16_t>(port);
            node.master = role && isStringLike(*role) && role->text == "master";
            if (id && isStringLike(*id))
                node.id = id->text;
            if (!node.master && health && isStringLike(*health) && health->text == "failed")
                continue;

            HostKind kind = HostKind::Unknown;
            for (const char* name : {"endpoint", "ip"}) {
                const RespValue* host = field(nodeValue, name);
                if (!host)
                    continue;
                kind = hostKind(*host);
                if (kind == HostKind::Known)
                    node.host = host->text;
                if (kind != HostKind::Unknown)
                    break;
            }
            if (kind == HostKind::Empty)
                node.host = std::string(replyHost);
            if (kind == HostKind::Unknown) {
                if (node.master)
                    unknownMaster = node.id.empty() ? std::string("?") : node.id;
                continue;
            }
            const int index = out.addNode(node);
            // Two masters in one shard (a stale view mid-failover): prefer the online one.
            if (node.master
                && (master == SlotMap::kNoNode || (health && isStringLike(*health) && health->text == "online")))
                master = index;
        }

        for (std::size_t i = 0; i < slots->elements.size(); i += 2) {
            std::int64_t first = 0;
            std::int64_t last = 0;
            if (!toInteger(slots->elements[i], first) || !toInteger(slots->elements[i + 1], last)
                || !validSlot(first) || !validSlot(last) || first > last)
                return fail(error, where + ": bad slot range");
            if (master == SlotMap::kNoNode) {
                const std::string slotsText = range(static_cast<int>(first), static_cast<int>(last));
                if (!unknownMaster.empty())
                    return fail(error, where + ": the master of slots " + slotsText + " (" + unknownMaster
                                           + ") has an unknown address ('?')");
                return fail(error, where + ": no master for slots " + slotsText);
            }
            out.assign(static_cast<std::uint16_t>(first), static_cast<std::uint16_t>(last), master);
        }
    }
    return true;
}

} // namespace tacho::engine
