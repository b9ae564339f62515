#include "engine/fleet/fleet_protocol.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "engine/report/json_reader.h"
#include "engine/report/json_writer.h"
#include "engine/text/base64.h"
#include "engine/text/number_format.h"

namespace tacho::engine {

namespace {

constexpr const char* kPrefix = "tacho:fleet:";
constexpr int kResultsStreamTtlSeconds = 24 * 3600;
constexpr int kOrdersKept = 100;
// An hour of one interval a second from each of five agents; a coordinator
// that lags further behind than that finds gaps (and says so).
constexpr int kIntervalsKept = 18000;

std::string stringField(const JsonValue& object, std::string_view key)
{
    const JsonValue* v = object.find(key);
    return v && v->isString() ? v->text() : std::string();
}

std::int64_t integerField(const JsonValue& object, std::string_view key)
{
    const JsonValue* v = object.find(key);
    return v && v->isNumber() ? v->asInt64().value_or(0) : 0;
}

std::optional<JsonValue> parseObject(const std::string& json, const char* what, std::string* error)
{
    JsonParseError parseError;
    auto value = parseJson(json, &parseError);
    if (!value || !value->isObject()) {
        if (error)
            *error = std::string(what) + " is not a JSON object";
        return std::nullopt;
    }
    return value;
}

// Whether `word` comes back unchanged from JSON text: the writer turns bytes
// that are not UTF-8 into U+FFFD. Asked of the writer and reader themselves,
// so the answer cannot drift from what they do.
bool survivesJsonText(const std::string& word)
{
    const auto back = parseJson("[" + JsonWriter::quote(word) + "]", nullptr);
    return back && back->isArray() && back->items().size() == 1 && back->items()[0].isString()
        && back->items()[0].textView() == word;
}

// An order's argument: a JSON string, or {"base64": …} for one that is not
// text (-x's bytes, issue 29), so that every byte arrives as it left.
void writeOrderArgument(JsonWriter& w, const std::string& word)
{
    if (survivesJsonText(word)) {
        w.value(word);
        return;
    }
    w.beginObject()
        .field("base64", base64Encode(reinterpret_cast<const std::uint8_t*>(word.data()), word.size()))
        .endObject();
}

std::optional<std::string> readOrderArgument(const JsonValue& value)
{
    if (value.isString())
        return value.text();
    const JsonValue* encoded = value.isObject() ? value.find("base64") : nullptr;
    std::vector<std::uint8_t> bytes;
    if (!encoded || !encoded->isString() || !base64Decode(encoded->textView(), bytes))
        return std::nullopt;
    return std::string(bytes.begin(), bytes.end());
}

struct StreamEntry {
    std::string id;
    std::vector<std::pair<std::string, std::string>> fields;
};

// One XREAD of several streams, each after its `*lastId` (at most `count`
// entries each, waiting at most blockMs for one); advances the ids and
// returns the entries by stream, in the order of `streams`. The reply is
// [[stream, entries], …] in RESP2, {stream: entries, …} in RESP3, nil when
// the wait timed out.
std::optional<std::vector<std::vector<StreamEntry>>> readStreams(
    ControlChannel& control, const std::vector<std::pair<std::string, std::string*>>& streams, int count,
    int blockMs, std::string* error)
{
    std::vector<std::string> args { "XREAD", "COUNT", std::to_string(count), "BLOCK", std::to_string(blockMs),
                                    "STREAMS" };
    for (const auto& stream : streams)
        args.push_back(stream.first);
    for (const auto& stream : streams)
        args.push_back(*stream.second);
    const auto reply = control.request(args, error);
    if (!reply)
        return std::nullopt;
    std::vector<std::pair<const RespValue*, const RespValue*>> named;   // stream name, its entries
    if (reply->type == ReplyType::Array) {
        for (const RespValue& one : reply->elements)
            if (one.elements.size() == 2)
                named.emplace_back(&one.elements[0], &one.elements[1]);
    } else if (reply->type == ReplyType::Map) {
        for (std::size_t i = 0; i + 1 < reply->elements.size(); i += 2)
            named.emplace_back(&reply->elements[i], &reply->elements[i + 1]);
    }
    std::vector<std::vector<StreamEntry>> out(streams.size());
    for (const auto& [name, entries] : named) {
        const std::string& streamName = name->text;   // a lambda may not capture a structured binding (clang 14)
        const auto which = std::find_if(streams.begin(), streams.end(),
                                        [&](const auto& stream) { return stream.first == streamName; });
        if (which == streams.end())
            continue;
        std::vector<StreamEntry>& into = out[std::size_t(which - streams.begin())];
        for (const RespValue& entry : entries->elements) {
            if (entry.elements.size() != 2)
                continue;
            StreamEntry parsed;
            parsed.id = entry.elements[0].text;
            const auto& fields = entry.elements[1].elements;
            for (std::size_t i = 0; i + 1 < fields.size(); i += 2)
                parsed.fields.emplace_back(fields[i].text, fields[i + 1].text);
            *which->second = parsed.id;
            into.push_back(std::move(parsed));
        }
    }
    return out;
}

std::optional<std::vector<StreamEntry>> readStream(ControlChannel& control, const std::string& stream,
                                                   std::string* lastId, int count, int blockMs, std::string* error)
{
    auto read = readStreams(control, { { stream, lastId } }, count, blockMs, error);
    if (!read)
        return std::nullopt;
    return std::move(read->front());
}

AgentReport reportFromFields(const StreamEntry& entry)
{
    AgentReport report;
    for (const auto& [name, text] : entry.fields) {
        if (name == "agent")
            report.agent = text;
        else if (name == "kind")
            report.kind = text;
        else if (name == "status")
            report.exitStatus = std::atoi(text.c_str());
        else if (name == "message")
            report.message = text;
        else if (name == "run")
            report.runFile = text;
        else if (name == "intervals")
            report.intervals = std::strtoull(text.c_str(), nullptr, 10);
    }
    return report;
}

} // namespace

std::string fleetAgentKey(const std::string& agent) { return kPrefix + std::string("agent:") + agent; }
std::string fleetOrdersStream(const std::string& agent) { return kPrefix + std::string("orders:") + agent; }
std::string fleetResultsStream(const std::string& runId) { return kPrefix + std::string("results:") + runId; }
std::string fleetStopKey(const std::string& runId) { return kPrefix + std::string("stop:") + runId; }
std::string fleetAgentStopKey(const std::string& runId, const std::string& agent)
{
    return fleetStopKey(runId) + ":" + agent;
}
std::string fleetAckKey(const std::string& runId, const std::string& agent)
{
    return kPrefix + std::string("ack:") + runId + ":" + agent;
}
std::string fleetIntervalsStream(const std::string& runId) { return kPrefix + std::string("intervals:") + runId; }
std::string fleetIntervalAckKey(const std::string& runId, const std::string& agent)
{
    return kPrefix + std::string("intervals-ack:") + runId + ":" + agent;
}

bool isValidAgentName(const std::string& name)
{
    return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
            || c == '-';
    });
}

void writeAgentIdentity(JsonWriter& w, const AgentInfo& info)
{
    w.field("name", info.name)
        .field("host", info.host)
        .field("version", info.version)
        .field("cores", info.cores)
        .field("clockOffsetMs", info.clockOffsetMs)
        .field("roundTripMs", info.roundTripMs);
}

std::string agentInfoToJson(const AgentInfo& info)
{
    JsonWriter w(0);
    w.beginObject();
    writeAgentIdentity(w, info);
    w.field("seenAtMs", info.seenAtMs)
        .field("runId", info.runId)
        .field("incarnation", info.incarnation)
        .endObject();
    return w.str();
}

bool agentInfoFromJson(const std::string& json, AgentInfo& out, std::string* error)
{
    const auto value = parseObject(json, "an agent's presence", error);
    if (!value)
        return false;
    out.name = stringField(*value, "name");
    if (!isValidAgentName(out.name)) {
        if (error)
            *error = "an agent's presence has no valid name";
        return false;
    }
    out.host = stringField(*value, "host");
    out.version = stringField(*value, "version");
    out.cores = static_cast<int>(integerField(*value, "cores"));
    out.clockOffsetMs = integerField(*value, "clockOffsetMs");
    out.roundTripMs = integerField(*value, "roundTripMs");
    out.seenAtMs = integerField(*value, "seenAtMs");
    out.runId = stringField(*value, "runId");
    out.incarnation = stringField(*value, "incarnation");
    return true;
}

bool announceAgent(ControlChannel& control, const AgentInfo& info, std::string* error)
{
    return control
        .request({ "SET", fleetAgentKey(info.name), agentInfoToJson(info), "PX", std::to_string(kAgentPresenceTtlMs) },
                 error)
        .has_value();
}

std::optional<std::vector<AgentInfo>> onlineAgents(ControlChannel& control, std::string* error)
{
    std::vector<std::string> keys;
    std::string cursor = "0";
    // Bounded: a control server holds few agents; 1000 pages is far beyond it.
    for (int page = 0; page < 1000; ++page) {
        const auto reply = control.request({ "SCAN", cursor, "MATCH", fleetAgentKey("*"), "COUNT", "1000" }, error);
        if (!reply)
            return std::nullopt;
        if (reply->elements.size() != 2) {
            if (error)
                *error = "control server " + control.where() + " gave SCAN no [cursor, keys] pair";
            return std::nullopt;
        }
        for (const RespValue& key : reply->elements[1].elements)
            keys.push_back(key.text);
        cursor = reply->elements[0].text;
        if (cursor == "0")
            break;
    }
    std::vector<AgentInfo> agents;
    for (const std::string& key : keys) {
        const auto reply = control.command({ "GET", key }, error);
        if (!reply)
            return std::nullopt;
        AgentInfo info;
        if (!reply->isNull() && agentInfoFromJson(replyText(*reply), info, nullptr)
            && fleetAgentKey(info.name) == key)
            agents.push_back(std::move(info));
    }
    std::sort(agents.begin(), agents.end(), [](const AgentInfo& a, const AgentInfo& b) { return a.name < b.name; });
    return agents;
}

std::string orderToJson(const FleetOrder& order)
{
    JsonWriter w(0);
    w.beginObject()
        .field("runId", order.runId)
        .field("agent", order.agent)
        .field("dialect", order.dialect)
        .key("args")
        .beginArray();
    for (const std::string& a : order.args)
        writeOrderArgument(w, a);
    w.endArray()
        .field("index", order.index)
        .field("count", order.count)
        .field("startAtMs", order.startAtMs)
        .field("issuedAtMs", order.issuedAtMs)
        .field("nonce", order.nonce)
        .endObject();
    return w.str();
}

bool orderFromJson(const std::string& json, FleetOrder& out, std::string* error)
{
    const auto value = parseObject(json, "an order", error);
    if (!value)
        return false;
    out.runId = stringField(*value, "runId");
    out.agent = stringField(*value, "agent");
    out.issuedAtMs = integerField(*value, "issuedAtMs");
    out.nonce = stringField(*value, "nonce");
    out.dialect = stringField(*value, "dialect");
    out.index = static_cast<int>(integerField(*value, "index"));
    out.count = static_cast<int>(integerField(*value, "count"));
    out.startAtMs = integerField(*value, "startAtMs");
    out.args.clear();
    const JsonValue* args = value->find("args");
    if (args && args->isArray())
        for (const JsonValue& a : args->items()) {
            auto word = readOrderArgument(a);
            if (!word) {
                if (error)
                    *error = "an order with an argument that is neither text nor base64";
                return false;
            }
            out.args.push_back(std::move(*word));
        }
    if (!isValidAgentName(out.runId) || out.dialect.empty() || out.count < 1 || out.index < 0
        || out.index >= out.count) {
        if (error)
            *error = "an order without a run id, a dialect or a valid share";
        return false;
    }
    return true;
}

bool postReport(ControlChannel& control, const std::string& runId, const AgentReport& report, std::string* error)
{
    const std::string stream = fleetResultsStream(runId);
    const auto reply = control.request({ "XADD", stream, "*", "agent", report.agent, "kind", report.kind, "status",
                                         std::to_string(report.exitStatus), "message", report.message, "run",
                                         report.runFile, "intervals", std::to_string(report.intervals) },
                                       error);
    if (!reply)
        return false;
    control.command({ "EXPIRE", stream, std::to_string(kResultsStreamTtlSeconds) }, nullptr);
    return true;
}

bool postOrder(ControlChannel& control, const FleetOrder& order, const FleetKey* key, std::string* error)
{
    const std::string json = orderToJson(order);
    // Capped: a stream that an absent agent never reads stays small.
    std::vector<std::string> args { "XADD", fleetOrdersStream(order.agent), "MAXLEN", "~", std::to_string(kOrdersKept),
                                    "*", "order", json };
    if (key)
        args.insert(args.end(), { "mac", key->sign(kOrderSignatureContext, json) });
    if (!control.request(args, error))
        return false;
    // Every key expires (issue 29): an agent gone for good leaves no stream behind for ever.
    control.command({ "EXPIRE", fleetOrdersStream(order.agent), std::to_string(kResultsStreamTtlSeconds) }, nullptr);
    return true;
}

std::optional<std::string> latestOrderId(ControlChannel& control, const std::string& agent, std::string* error)
{
    const auto reply = control.request({ "XREVRANGE", fleetOrdersStream(agent), "+", "-", "COUNT", "1" }, error);
    if (!reply)
        return std::nullopt;
    if (reply->elements.empty() || reply->elements[0].elements.empty())
        return std::string("0-0");
    return reply->elements[0].elements[0].text;
}

std::optional<std::vector<ReceivedOrder>> readOrders(ControlChannel& control, const std::string& agent,
                                                     std::string* lastId, int blockMs, std::string* error)
{
    const auto entries = readStream(control, fleetOrdersStream(agent), lastId, 10, blockMs, error);
    if (!entries)
        return std::nullopt;
    std::vector<ReceivedOrder> orders;
    for (const StreamEntry& entry : *entries) {
        ReceivedOrder order;
        bool hasOrder = false;
        for (const auto& [name, text] : entry.fields) {
            if (name == "order") {
                order.json = text;
                hasOrder = true;
            } else if (name == "mac") {
                order.mac = text;
            }
        }
        if (hasOrder)
            orders.push_back(std::move(order));
    }
    return orders;
}

std::uint64_t FleetInterval::requests() const
{
    return std::accumulate(commands.begin(), commands.end(), std::uint64_t(0),
                           [](std::uint64_t sum, const FleetCommandInterval& c) { return sum + c.requests; });
}

std::uint64_t FleetInterval::errors() const
{
    return std::accumulate(commands.begin(), commands.end(), std::uint64_t(0),
                           [](std::uint64_t sum, const FleetCommandInterval& c) { return sum + c.errors; });
}

std::vector<std::pair<std::string, std::string>> fleetIntervalFields(const FleetInterval& interval)
{
    JsonWriter commands(0);
    commands.beginArray();
    for (const FleetCommandInterval& c : interval.commands)
        commands.beginObject()
            .field("requests", c.requests)
            .field("errors", c.errors)
            .field("latency", c.latency)
            .endObject();
    commands.endArray();
    return { { "agent", interval.agent },
             { "seq", std::to_string(interval.seq) },
             { "test", std::to_string(interval.test) },
             { "name", interval.testName },
             { "second", std::to_string(interval.second) },
             { "start", fixedDecimals(interval.startSeconds, 3) },
             { "end", fixedDecimals(interval.endSeconds, 3) },
             { "at", std::to_string(interval.sentAtMs) },
             { "commands", commands.str() } };
}

bool postInterval(ControlChannel& control, const std::string& runId, const FleetInterval& interval,
                  std::string* error)
{
    const std::string stream = fleetIntervalsStream(runId);
    std::vector<std::string> args { "XADD", stream, "MAXLEN", "~", std::to_string(kIntervalsKept), "*" };
    for (auto& [name, text] : fleetIntervalFields(interval)) {
        args.push_back(std::move(name));
        args.push_back(std::move(text));
    }
    if (!control.request(args, error))
        return false;
    control.command({ "EXPIRE", stream, std::to_string(kResultsStreamTtlSeconds) }, nullptr);
    return true;
}

bool fleetIntervalFromFields(const std::vector<std::pair<std::string, std::string>>& fields, FleetInterval& out)
{
    const auto number = [](const std::string& text) { return std::strtoull(text.c_str(), nullptr, 10); };
    std::string commands;
    for (const auto& [name, text] : fields) {
        if (name == "agent")
            out.agent = text;
        else if (name == "seq")
            out.seq = number(text);
        else if (name == "test")
            out.test = number(text);
        else if (name == "name")
            out.testName = text;
        else if (name == "second")
            out.second = number(text);
        else if (name == "start")
            out.startSeconds = std::strtod(text.c_str(), nullptr);
        else if (name == "end")
            out.endSeconds = std::strtod(text.c_str(), nullptr);
        else if (name == "at")
            out.sentAtMs = std::strtoll(text.c_str(), nullptr, 10);
        else if (name == "commands")
            commands = text;
    }
    JsonParseError parseError;
    const auto list = parseJson(commands, &parseError);
    if (!isValidAgentName(out.agent) || out.seq == 0 || !list || !list->isArray())
        return false;
    out.commands.clear();
    for (const JsonValue& item : list->items()) {
        if (!item.isObject())
            return false;
        FleetCommandInterval c;
        c.requests = std::uint64_t(integerField(item, "requests"));
        c.errors = std::uint64_t(integerField(item, "errors"));
        c.latency = stringField(item, "latency");
        out.commands.push_back(std::move(c));
    }
    return true;
}

std::optional<RunStreamsRead> readRunStreams(ControlChannel& control, const std::string& runId,
                                             std::string* lastReportId, std::string* lastIntervalId, int blockMs,
                                             std::string* error)
{
    const auto read = readStreams(control,
                                  { { fleetResultsStream(runId), lastReportId },
                                    { fleetIntervalsStream(runId), lastIntervalId } },
                                  200, blockMs, error);
    if (!read)
        return std::nullopt;
    RunStreamsRead out;
    for (const StreamEntry& entry : (*read)[0])
        out.reports.push_back(reportFromFields(entry));
    for (const StreamEntry& entry : (*read)[1]) {
        FleetInterval interval;
        if (fleetIntervalFromFields(entry.fields, interval))
            out.intervals.push_back(std::move(interval));
    }
    return out;
}

} // namespace tacho::engine
