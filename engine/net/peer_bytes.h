#pragma once
// What the bytes a server sent say about the protocol it speaks, for error
// messages that tell the truth (issue 16): suggest TLS only when the server
// sent TLS, or stayed silent in plain text and answers a TLS ClientHello with
// TLS; suggest plain text when a TLS handshake got RESP back; otherwise say
// what happened. Failure paths only, never per request.
#include <string>
#include <string_view>

#include "engine/net/socket_address.h"

namespace tacho::engine {

// A TLS record header: alert (0x15) or handshake (0x16), then version 3.x
// with x ≤ 4 (SSL 3.0 … TLS 1.3; TLS 1.3 records still say 3.1 or 3.3).
bool looksLikeTls(std::string_view firstBytes);

// The first byte of a RESP2 reply ('+', '-', ':', '$', '*').
bool looksLikeResp(std::string_view firstBytes);

// A one-off check on a failure path: connects to `address` anew, sends a
// short TLS ClientHello and reads the first bytes back, at most timeoutMs in
// all. True when they are a TLS record (a TLS port, whatever it thought of
// our hello); a plain-text server answers RESP, closes or waits: false.
bool answersTlsHello(const SocketAddress& address, int timeoutMs);

// A plain-text connection ended before the answer to COMMAND: "server WHERE
// closed the connection without answering COMMAND" (error 0), or "lost
// connection to WHERE without an answer to COMMAND: <errno text>"; then, when
// the server speaks TLS there, kSpeaksTls; else, for any command but PING (a
// proxy answers PING itself), the likely cause: a proxy (twemproxy, Envoy)
// closes the connection on a command it does not support.
std::string lostBeforeAnswer(const std::string& where, const std::string& command, int error, bool speaksTls);

// The hint for a plain-text connection whose first bytes back were TLS.
inline constexpr std::string_view kSpeaksTls =
    "the server speaks TLS on this port: connect with TLS (--tls)";
// The hint for a TLS handshake whose first bytes back were RESP.
inline constexpr std::string_view kSpeaksPlainText =
    "the server answered in plain text (RESP), not TLS: this port speaks plain text, connect without --tls";

} // namespace tacho::engine
