#!/usr/bin/env bash
# The server the browser tests drive: the built console and API on a fresh embedded database,
# filled by the real demo command first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PORT="${E2E_PORT:-18480}"
export GATEHOUSE_DATA_DIR="$PWD/e2e/.data-$PORT"
export GATEHOUSE_ADMIN_EMAIL=admin@e2e.gatehouse.test
export GATEHOUSE_ADMIN_PASSWORD=e2e-admin-password
export GATEHOUSE_LOGIN_RATE_LIMIT=10000
export GATEHOUSE_BUILD_TAG=e2e
# Development licences (npm run mint-license) are accepted here, so the settings test can install one.
export GATEHOUSE_DEV_LICENSES=true
# Info, as a default install logs, so the status screen has each component's recent lines; the
# console stays quiet: the server's output goes to server.log in the data folder.
export LOG_LEVEL=info
export GATEHOUSE_SSH_PORT="${E2E_SSH_PORT:-$((PORT + 1000))}"
rm -rf "$GATEHOUSE_DATA_DIR"
node apps/server/dist/cli/demo.js >/dev/null
exec node apps/server/dist/main.js >"$GATEHOUSE_DATA_DIR/server.log"
