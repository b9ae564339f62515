#pragma once
// Redis Cluster key hashing: CRC16 (XMODEM), the key's slot with hash tags,
// and a table of short hash tags, one per slot.
//
// All functions are pure, allocation-free and thread-safe; they may be called
// from any thread, on the per-request path.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tacho::engine {

inline constexpr std::uint16_t kClusterSlots = 16384;

// CRC16-CCITT in its XMODEM form (polynomial 0x1021, initial value 0, no
// reflection, no final XOR): the checksum Redis Cluster hashes keys with.
// crc16("123456789") == 0x31C3.
std::uint16_t crc16(std::string_view data);

// The part of `key` that is hashed, by the Redis Cluster specification: if the
// key contains a '{', and a '}' somewhere after that first '{', and at least
// one byte lies between them, only those bytes are hashed; otherwise the whole
// key. ("foo{}{bar}" hashes the whole key; "foo{{bar}}zap" hashes "{bar".)
std::string_view hashTagOf(std::string_view key);

// The key's slot: crc16(hashTagOf(key)) mod 16384. keySlot("foo") == 12182.
std::uint16_t keySlot(std::string_view key);

// A short tag (1 to 3 characters of [0-9A-Za-z], without braces) whose slot is
// `slot` (taken mod 16384): keySlot(tag) == slot and keySlot("{" + tag + "}…")
// == slot. The shortest such tag, first in the order 0-9, A-Z, a-z. The table
// of all 16384 tags (64 KiB, built in well under a millisecond) is built once,
// at the first call; the view points into it and stays valid for the
// program's lifetime. Used to rewrite keys into "{tag}key" so that a client's
// keys hash to a slot of the node it talks to (redis-benchmark --cluster).
std::string_view findHashTagForSlot(std::uint16_t slot);

} // namespace tacho::engine
