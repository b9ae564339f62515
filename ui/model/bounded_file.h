#pragma once
// Every file the workbench reads from its own folders (History's run files
// and their sidecars, profiles, presets) goes through here, with the limits
// tacho-cli applies (engine readTextFile): a regular file only, at most a
// stated size, read without ever waiting on a pipe, and an allocation failure
// turned into a message. A file that cannot be read is set aside by its
// caller with that message; it is never fatal (issue 30: one oversized file
// in History killed the workbench at every start).
#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>

namespace tacho::ui {

// A run file: the CLI's own limit (engine kMaxRunFileBytes, 256 MiB).
std::uint64_t maxRunFileBytes();
// A sidecar, profile, preset or profile export: a few KB each; 4 MiB is far
// above any real one and bounds what a stray file in the folder can cost.
inline constexpr std::uint64_t kMaxSettingsFileBytes = 4ull << 20;

// The whole file, or nullopt with *error naming the path and the reason
// ("a named pipe, not a regular file", "too large to read (… bytes; at most … MiB)",
// "not enough memory to read it").
std::optional<QByteArray> readBoundedFile(const QString& path, std::uint64_t maxBytes, QString* error);

} // namespace tacho::ui
