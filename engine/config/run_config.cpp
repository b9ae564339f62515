#include "engine/config/run_config.h"

namespace tacho::engine {

RunConfig withoutSecrets(RunConfig config)
{
    if (!config.password.empty())
        config.passwordSet = true;
    config.password.clear();
    return config;
}

} // namespace tacho::engine
