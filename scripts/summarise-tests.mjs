// Prints the failed tests by name (CI keeps only the end of the output, so they must be near it),
// then one closing line, 'N passed, N failed, N skipped', over the vitest and Playwright reports.
import fs from 'node:fs';

const failures = [];
/** The first lines of why a test failed, without colour codes, indented under its name. */
function why(messages) {
  const lines = (messages ?? [])
    .join('\n')
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  const where = lines.find((l) => /^\s*at .*\.(test|spec)\.tsx?:/.test(l));
  const said = lines.filter((l) => !/^\s*at /.test(l)).slice(0, 5);
  if (where) said.push(where.trim());
  return said.length === 0 ? '' : `\n${said.map((l) => `      ${l.slice(0, 300)}`).join('\n')}`;
}
/** Playwright's suites nest; a test failed when its last result is neither passed nor skipped. */
function playwrightFailures(suite, trail) {
  const here = suite.title ? [...trail, suite.title] : trail;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status === 'unexpected') {
        const errors = (test.results ?? []).flatMap((r) => (r.errors ?? []).map((e) => e.message ?? ''));
        failures.push(`e2e  ${[...here, spec.title].join(' › ')}${why(errors)}`);
      }
    }
  }
  for (const child of suite.suites ?? []) playwrightFailures(child, here);
}
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    console.error(`missing test report ${file}: that runner did not finish`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  if ('numPassedTests' in report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    for (const file of report.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status === 'failed') failures.push(`unit ${test.fullName ?? test.title}${why(test.failureMessages)}`);
      }
      if ((file.assertionResults ?? []).length === 0 && file.status === 'failed') {
        failures.push(`unit ${file.name}: ${String(file.message ?? '').split('\n')[0]}`);
      }
    }
  } else if (report.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    for (const suite of report.suites ?? []) playwrightFailures(suite, []);
  }
}
if (failures.length > 0) console.log(`Failed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 ? 1 : 0;
