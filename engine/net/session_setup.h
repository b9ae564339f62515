#pragma once
// The commands every connection sends before benchmark traffic: HELLO 3
// (with AUTH inside it), or AUTH, then SELECT. Their replies are checked and
// never counted as benchmark requests.
#include <string>
#include <string_view>
#include <vector>

#include "engine/config/run_config.h"

namespace tacho::engine {

std::vector<std::vector<std::string>> sessionSetupCommands(const RunConfig& config);

// A specific message for an error reply to a setup command:
// "authentication failed: WRONGPASS …", "SELECT 99 failed: ERR …".
std::string describeSetupFailure(const std::vector<std::string>& command, std::string_view errorText);

} // namespace tacho::engine
