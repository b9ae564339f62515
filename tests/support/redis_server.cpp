#include "support/redis_server.h"
