#include "engine/net/session_setup.h"
#include "engine/resp/printable_text.h"

namespace tacho::engine {

std::vector<std::vector<std::string>> sessionSetupCommands(const RunConfig& config)
{
    std::vector<std::vector<std::string>> commands;
    const bool auth = !config.password.empty();
    if (config.protocol == 3) {
        std::vector<std::string> hello { "HELLO", "3" };
        if (auth) {
            hello.insert(hello.end(), { "AUTH", config.user.empty() ? "default" : config.user, config.password });
        }
        commands.push_back(std::move(hello));
    } else if (auth) {
        if (config.user.empty())
            commands.push_back({ "AUTH", config.password });
        else
            commands.push_back({ "AUTH", config.user, config.password });
    }
    if (config.database != 0)
        commands.push_back({ "SELECT", std::to_string(config.database) });
    return commands;
}

std::string describeSetupFailure(const std::vector<std::string>& command, std::string_view errorText)
{
    const std::string name = command.empty() ? std::string() : command.front();
    std::string what;
    if (name == "AUTH" || (name == "HELLO" && command.size() > 2))
        what = "authentication failed";
    else if (name == "HELLO")
        what = "HELLO 3 failed (the server may not support RESP3)";
    else if (name == "SELECT")
        what = "SELECT " + (command.size() > 1 ? command[1] : std::string()) + " failed";
    else
        what = name + " failed";
    return what + ": " + printable(errorText);
}

} // namespace tacho::engine
