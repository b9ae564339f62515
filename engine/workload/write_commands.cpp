#include "engine/workload/write_commands.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace tacho::engine {

namespace {

// Redis 7.2's key-addressing commands flagged "write" (COMMAND INFO), upper
// case; scripts and functions too (they may write the keys they name).
constexpr std::string_view kWriteCommands[] = {
    "APPEND", "BITFIELD", "BITOP", "BLMOVE", "BLMPOP", "BLPOP", "BRPOP", "BRPOPLPUSH", "BZMPOP", "BZPOPMAX",
    "BZPOPMIN", "COPY", "DECR", "DECRBY", "DEL", "EXPIRE", "EXPIREAT", "GEOADD", "GEORADIUS", "GEORADIUSBYMEMBER",
    "GEOSEARCHSTORE", "GETDEL", "GETEX", "GETSET", "HDEL", "HINCRBY", "HINCRBYFLOAT", "HMSET", "HSET", "HSETNX",
    "INCR", "INCRBY", "INCRBYFLOAT", "LINSERT", "LMOVE", "LMPOP", "LPOP", "LPUSH", "LPUSHX", "LREM",
    "LSET", "LTRIM", "MIGRATE", "MOVE", "MSET", "MSETNX", "PERSIST", "PEXPIRE", "PEXPIREAT", "PFADD",
    "PFMERGE", "PSETEX", "RENAME", "RENAMENX", "RESTORE", "RESTORE-ASKING", "RPOP", "RPOPLPUSH",
    "RPUSH", "RPUSHX", "SADD", "SDIFFSTORE", "SET", "SETBIT", "SETEX", "SETNX", "SETRANGE", "SINTERSTORE",
    "SMOVE", "SORT", "SPOP", "SREM", "SUNIONSTORE", "UNLINK", "XACK", "XADD", "XAUTOCLAIM", "XCLAIM",
    "XDEL", "XGROUP", "XREADGROUP", "XSETID", "XTRIM", "ZADD", "ZDIFFSTORE", "ZINCRBY", "ZINTERSTORE", "ZMPOP",
    "ZPOPMAX", "ZPOPMIN", "ZRANGESTORE", "ZREM", "ZREMRANGEBYLEX", "ZREMRANGEBYRANK", "ZREMRANGEBYSCORE", "ZUNIONSTORE",
    "EVAL", "EVALSHA", "FCALL",
};

} // namespace

bool isWriteCommand(std::string_view command)
{
    std::string upper(command);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c); });
    return std::find(std::begin(kWriteCommands), std::end(kWriteCommands), upper) != std::end(kWriteCommands);
}

} // namespace tacho::engine
