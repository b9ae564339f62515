#include "support/cli_runner.h"
