/**
 * `npm test`: everything CI checks, in order — lint, types, build, then every
 * Vitest project (unit, API through inject, browser journeys on Debian's
 * Chromium). Installs Chromium from Debian when it is missing and this user can,
 * otherwise says exactly what is missing. Ends with one "N passed, N failed" line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RESULTS = '.vitest-results.json';

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`✖ ${label} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    console.error(
      `Chromium is missing at ${CHROMIUM}. Install Debian's package (as root: apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
  run('install Chromium from Debian', 'sh', [
    '-c',
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null',
  ]);
}

const vitestArgs = process.argv.slice(2);
ensureChromium();
run('lint', 'npx', ['biome', 'check', '.']);
run('typecheck', 'npm', ['run', '--silent', 'typecheck']);
run('build', 'npm', ['run', '--silent', 'build']);

rmSync(RESULTS, { force: true });
console.log('\n▶ tests');
const tests = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${RESULTS}`, ...vitestArgs],
  { stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: CHROMIUM } },
);

if (existsSync(RESULTS)) {
  const summary = JSON.parse(readFileSync(RESULTS, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  console.log(
    `\n${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${summary.numPendingTests + summary.numTodoTests} skipped`,
  );
}
process.exit(tests.status ?? 1);
