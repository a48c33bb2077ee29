#!/bin/sh
# Entry point of the Switchboard image: sets SNOWFLAKE_WORKER_ID when it is not given, then
# runs the command (the gateway by default).
#
# Every replica needs its own 10-bit snowflake worker id, and `docker compose up --scale`
# gives all replicas one environment. Docker hands out addresses on a network in sequence,
# so the low bits of the container's IPv4 address differ between any 1023 live containers.
# 1023 itself stays free for operator tools (the CLI's default).
set -eu

if [ -z "${SNOWFLAKE_WORKER_ID:-}" ]; then
  if ! SNOWFLAKE_WORKER_ID=$(node -e '
    const nics = Object.values(require("node:os").networkInterfaces()).flat();
    const nic = nics.find((n) => n && n.family === "IPv4" && !n.internal);
    if (!nic) process.exit(1);
    const [, , c, d] = nic.address.split(".").map(Number);
    console.log((c * 256 + d) % 1023);
  '); then
    echo "docker-entrypoint: no IPv4 address to derive SNOWFLAKE_WORKER_ID from; set it explicitly" >&2
    exit 78
  fi
  export SNOWFLAKE_WORKER_ID
fi

exec "$@"
