#!/usr/bin/env bash
# tests/package/check_agent_unit.sh - the agents' systemd unit is hardened (issue 29):
# `systemd-analyze security --offline` rates packaging/tacho-agent@.service below 5 ("OK"),
# and `systemd-analyze verify` finds nothing wrong in it but the program and man page it
# names (installed by the package, not in a build tree). No systemd needs to run. Exits 1 with what failed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
unit=$here/../../packaging/tacho-agent@.service
command -v systemd-analyze >/dev/null 2>&1 || { echo "check_agent_unit: needs systemd-analyze (apt-get install systemd)" >&2; exit 1; }
# --threshold is tenths of the exposure figure: 49 is "below 5".
if ! report=$(systemd-analyze security --offline=true --threshold=49 "$unit" 2>&1); then
  echo "check_agent_unit: the unit is exposed above 4.9:" >&2
  printf '%s\n' "$report" | grep -E '✗|Overall' >&2
  exit 1
fi
problems=$(systemd-analyze verify "$unit" 2>&1 | grep -v -e "man tacho-cli" -e "Command /usr/bin/tacho-cli is not executable" || true)
if [ -n "$problems" ]; then
  echo "check_agent_unit: systemd-analyze verify: $problems" >&2
  exit 1
fi
printf '%s\n' "$report" | grep Overall
