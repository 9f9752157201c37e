#!/usr/bin/env bash
# The whole test suite, as the README and CI run it: build, type-check, lint, format check,
# unit and API tests (PGlite always, PostgreSQL too when TEST_DATABASE_URL is set), then the
# browser tests against the built console and a real server, then the fault suite's smoke (faults/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
echo "== build";       npm run build
echo "== typecheck";   npm run typecheck
echo "== lint";        npm run lint
echo "== format";      npm run format:check
echo "== engines";     node scripts/check-engines.mjs
rm -rf test-results && mkdir -p test-results
set +e
echo "== unit and API tests (databases: PGlite${TEST_DATABASE_URL:+ and PostgreSQL})"
# Two workers: most tests wait on real programs (sshd, xrdp, Chromium), so two overlap well on two
# cores (vitest's default is one fewer than the cores, which is one here).
npx vitest run --maxWorkers=2 --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
unit=$?
echo "== browser tests (Chromium $(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}'))"
PLAYWRIGHT_JSON_OUTPUT_NAME="$PWD/test-results/e2e.json" npx playwright test -c e2e/playwright.config.ts --reporter=list,json
e2e=$?
# The fault suite's small versions (faults/run.mjs; the full one is npm run faults, outside this budget).
faults=0
if [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null; then
  echo "== fault smoke (npm run faults -- --smoke)"
  node faults/run.mjs --smoke
  faults=$?
else
  echo "== fault smoke: skipped, /usr/sbin/sshd or ssh is missing"
fi
set -e
node scripts/summarise-tests.mjs test-results/vitest.json test-results/e2e.json
if [ "$faults" -ne 0 ]; then echo "fault smoke: failed (its table above)"; fi
if [ "$unit" -ne 0 ] || [ "$e2e" -ne 0 ] || [ "$faults" -ne 0 ]; then exit 1; fi
