#include "engine/report/telemetry_json.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace tacho::engine {

namespace {

// Thrown inside the reader only; turned into the error message at the top.
struct Malformed {
    std::string message;
};

// A member of an object, read when present (absent: the default stays).
class Reader {
public:
    Reader(const JsonValue& value, std::string path) : m_value(value), m_path(std::move(path))
    {
        if (!m_value.isObject() && !m_value.isArray())
            throw Malformed { m_path + ": expected an object" };
    }
    const JsonValue* member(const char* key, JsonValue::Type type, const char* expected) const
    {
        const JsonValue* child = m_value.isObject() ? m_value.find(key) : nullptr;
        if (child && child->type() != type)
            throw Malformed { m_path + "." + key + ": expected " + expected + ", found " + child->typeName() };
        return child;
    }
    void real(const char* key, double& out) const
    {
        if (const JsonValue* v = member(key, JsonValue::Type::Number, "a number")) {
            out = v->number();
            if (!std::isfinite(out))
                throw Malformed { m_path + "." + key + ": number out of range" };
        }
    }
    void count(const char* key, std::uint64_t& out) const
    {
        if (const JsonValue* v = member(key, JsonValue::Type::Number, "a number")) {
            const auto n = v->asUint64();
            if (!n)
                throw Malformed { m_path + "." + key + ": expected a non-negative integer" };
            out = *n;
        }
    }
    void integer(const char* key, int& out) const
    {
        std::uint64_t n = static_cast<std::uint64_t>(std::max(0, out));
        count(key, n);
        if (n > 1000000000)
            throw Malformed { m_path + "." + key + ": number out of range" };
        out = static_cast<int>(n);
    }
    void text(const char* key, std::string& out) const
    {
        if (const JsonValue* v = member(key, JsonValue::Type::String, "a string"))
            out = v->text();
    }
    void reals(const char* key, std::vector<double>& out) const
    {
        if (const JsonValue* v = member(key, JsonValue::Type::Array, "an array"))
            for (std::size_t i = 0; i < v->items().size(); ++i) {
                if (!v->items()[i].isNumber() || !std::isfinite(v->items()[i].number()))
                    throw Malformed { m_path + "." + key + "[" + std::to_string(i) + "]: expected a number" };
                out.push_back(v->items()[i].number());
            }
    }
    // Each object of an array member, with its path.
    template <typename Each>
    void objects(const char* key, Each each) const
    {
        if (const JsonValue* v = member(key, JsonValue::Type::Array, "an array"))
            for (std::size_t i = 0; i < v->items().size(); ++i) {
                const std::string path = m_path + "." + key + "[" + std::to_string(i) + "]";
                if (!v->items()[i].isObject())
                    throw Malformed { path + ": expected an object" };
                each(Reader(v->items()[i], path));
            }
    }
    std::optional<Reader> object(const char* key) const
    {
        if (const JsonValue* v = member(key, JsonValue::Type::Object, "an object"))
            return Reader(*v, m_path + "." + key);
        return std::nullopt;
    }

private:
    const JsonValue& m_value;
    std::string m_path;
};

void writeReals(JsonWriter& w, const char* key, const std::vector<double>& values)
{
    w.key(key).beginArray();
    for (double v : values)
        w.value(v);
    w.endArray();
}

void writeServer(JsonWriter& w, const ServerTelemetry& s)
{
    w.beginObject();
    w.field("address", s.address);
    if (!s.unavailable.empty())
        w.field("unavailable", s.unavailable);
    w.key("points").beginArray();
    for (const ServerPoint& p : s.points) {
        w.beginObject();
        w.field("startSeconds", p.startSeconds);
        w.field("endSeconds", p.endSeconds);
        // A reading not read is left out (read back as unknown), never written as 0.
        for (const ServerReadingField& f : kServerReadingFields)
            if (known(p.*f.member))
                w.field(f.name, p.*f.member);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

void readServer(const Reader& r, ServerTelemetry& s)
{
    r.text("address", s.address);
    r.text("unavailable", s.unavailable);
    r.objects("points", [&](const Reader& q) {
        ServerPoint p;
        q.real("startSeconds", p.startSeconds);
        q.real("endSeconds", p.endSeconds);
        for (const ServerReadingField& f : kServerReadingFields)
            q.real(f.name, p.*f.member);
        s.points.push_back(p);
    });
}

void writeClient(JsonWriter& w, const ClientTelemetry& c)
{
    w.beginObject();
    w.field("host", c.host);
    w.field("cpuCount", c.cpuCount);
    if (!c.unavailable.empty())
        w.field("unavailable", c.unavailable);
    w.key("points").beginArray();
    for (const ClientPoint& p : c.points) {
        w.beginObject();
        w.field("startSeconds", p.startSeconds);
        w.field("endSeconds", p.endSeconds);
        writeReals(w, "threadCpuPercent", p.threadCpuPercent);
        writeReals(w, "threadWaitPercent", p.threadWaitPercent);
        for (const ClientReadingField& f : kClientReadingFields)
            if (known(p.*f.member))
                w.field(f.name, p.*f.member);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

void readClient(const Reader& r, ClientTelemetry& c)
{
    r.text("host", c.host);
    r.integer("cpuCount", c.cpuCount);
    r.text("unavailable", c.unavailable);
    r.objects("points", [&](const Reader& q) {
        ClientPoint p;
        q.real("startSeconds", p.startSeconds);
        q.real("endSeconds", p.endSeconds);
        q.reals("threadCpuPercent", p.threadCpuPercent);
        q.reals("threadWaitPercent", p.threadWaitPercent);
        for (const ClientReadingField& f : kClientReadingFields)
            q.real(f.name, p.*f.member);
        c.points.push_back(std::move(p));
    });
}

void writeVerdict(JsonWriter& w, const BottleneckVerdict& v)
{
    w.beginObject();
    w.field("kind", bottleneckName(v.kind));
    if (!v.rate.empty())
        w.field("rate", v.rate);
    w.field("reason", v.reason);
    w.field("advice", v.advice);
    const VerdictThresholds& t = v.thresholds;
    w.key("thresholds").beginObject();
    w.field("serverThreadPercent", t.serverThreadPercent);
    w.field("engineThreadPercent", t.engineThreadPercent);
    w.field("hostBusyPercent", t.hostBusyPercent);
    w.field("hostStarvedWaitPercent", t.hostStarvedWaitPercent);
    w.field("shareOfSeconds", t.shareOfSeconds);
    w.field("rateHeldRatio", t.rateHeldRatio);
    w.endObject();
    const VerdictInputs& in = v.inputs;
    w.key("inputs").beginObject();
    w.field("intervalsJudged", in.intervalsJudged);
    w.field("serverHotIntervals", in.serverHotIntervals);
    w.field("clientHotIntervals", in.clientHotIntervals);
    w.field("serverBusiestPercent", in.serverBusiestPercent);
    w.field("serverBusiestWhat", in.serverBusiestWhat);
    w.field("serverWaitPercent", in.serverWaitPercent);
    w.field("engineThreadMaxPercent", in.engineThreadMaxPercent);
    w.field("engineDemandMaxPercent", in.engineDemandMaxPercent);
    w.field("engineWaitMaxPercent", in.engineWaitMaxPercent);
    w.field("hostBusyMaxPercent", in.hostBusyMaxPercent);
    w.field("hostStealMaxPercent", in.hostStealMaxPercent);
    w.field("targetRate", in.targetRate);
    w.field("achievedRate", in.achievedRate);
    w.field("connections", in.connections);
    w.field("pipeline", in.pipeline);
    w.field("threads", in.threads);
    w.endObject();
    w.endObject();
}

void readVerdict(const Reader& r, BottleneckVerdict& v)
{
    std::string kind;
    r.text("kind", kind);
    v.kind = bottleneckFromName(kind);
    r.text("rate", v.rate);
    r.text("reason", v.reason);
    r.text("advice", v.advice);
    if (auto t = r.object("thresholds")) {
        t->real("serverThreadPercent", v.thresholds.serverThreadPercent);
        t->real("engineThreadPercent", v.thresholds.engineThreadPercent);
        t->real("hostBusyPercent", v.thresholds.hostBusyPercent);
        t->real("hostStarvedWaitPercent", v.thresholds.hostStarvedWaitPercent);
        t->real("shareOfSeconds", v.thresholds.shareOfSeconds);
        t->real("rateHeldRatio", v.thresholds.rateHeldRatio);
    }
    if (auto in = r.object("inputs")) {
        VerdictInputs& i = v.inputs;
        in->integer("intervalsJudged", i.intervalsJudged);
        in->integer("serverHotIntervals", i.serverHotIntervals);
        in->integer("clientHotIntervals", i.clientHotIntervals);
        in->real("serverBusiestPercent", i.serverBusiestPercent);
        in->text("serverBusiestWhat", i.serverBusiestWhat);
        in->real("serverWaitPercent", i.serverWaitPercent);
        in->real("engineThreadMaxPercent", i.engineThreadMaxPercent);
        in->real("engineDemandMaxPercent", i.engineDemandMaxPercent);
        in->real("engineWaitMaxPercent", i.engineWaitMaxPercent);
        in->real("hostBusyMaxPercent", i.hostBusyMaxPercent);
        in->real("hostStealMaxPercent", i.hostStealMaxPercent);
        in->real("targetRate", i.targetRate);
        in->real("achievedRate", i.achievedRate);
        in->integer("connections", i.connections);
        in->integer("pipeline", i.pipeline);
        in->integer("threads", i.threads);
    }
}

} // namespace

void writeTelemetryJson(JsonWriter& w, const TestTelemetry& t)
{
    w.beginObject();
    w.field("intervalSeconds", t.intervalSeconds);
    w.key("servers").beginArray();
    for (const ServerTelemetry& server : t.servers)
        writeServer(w, server);
    w.endArray();
    w.key("client");
    writeClient(w, t.client);
    if (!t.clients.empty()) {   // merged runs: every load machine's
        w.key("clients").beginArray();
        for (const ClientTelemetry& client : t.clients)
            writeClient(w, client);
        w.endArray();
    }
    w.key("commandTimes").beginArray();
    for (const ServerCommandTime& c : t.commandTimes) {
        w.beginObject();
        w.field("command", c.command);
        w.field("calls", c.calls);
        w.field("usecPerCall", c.usecPerCall);
        if (!c.latencyPercentiles.empty())
            w.field("latencyPercentiles", c.latencyPercentiles);
        w.endObject();
    }
    w.endArray();
    w.key("verdict");
    writeVerdict(w, t.verdict);
    w.endObject();
}

bool readTelemetryJson(const JsonValue& value, const std::string& path, TestTelemetry& out, std::string* error)
{
    try {
        if (!value.isObject())
            throw Malformed { path + ": expected an object, found " + value.typeName() };
        const Reader r(value, path);
        TestTelemetry t;
        r.real("intervalSeconds", t.intervalSeconds);
        if (t.intervalSeconds < 0)
            throw Malformed { path + ".intervalSeconds: expected a number >= 0" };
        r.objects("servers", [&](const Reader& s) {
            ServerTelemetry server;
            readServer(s, server);
            t.servers.push_back(std::move(server));
        });
        if (auto client = r.object("client"))
            readClient(*client, t.client);
        r.objects("clients", [&](const Reader& c) {
            ClientTelemetry client;
            readClient(c, client);
            t.clients.push_back(std::move(client));
        });
        r.objects("commandTimes", [&](const Reader& c) {
            ServerCommandTime time;
            c.text("command", time.command);
            c.count("calls", time.calls);
            c.real("usecPerCall", time.usecPerCall);
            c.text("latencyPercentiles", time.latencyPercentiles);
            t.commandTimes.push_back(std::move(time));
        });
        if (auto verdict = r.object("verdict"))
            readVerdict(*verdict, t.verdict);
        out = std::move(t);
        return true;
    } catch (const Malformed& malformed) {
        if (error)
            *error = malformed.message;
        return false;
    }
}

} // namespace tacho::engine
