/**
 * `npm test`: everything CI checks, in order — lint, types, build, then every
 * Vitest project (unit, API through inject, browser journeys on Debian's
 * Chromium). Installs Chromium and nginx from Debian when they are missing and this user
 * can, otherwise says exactly what is missing. Ends with one "N passed, N failed" line.
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

/**
 * The balancer test (tests/api/balancer.test.ts) runs Debian's nginx in front of two shop
 * processes. Installed when missing and this user can; otherwise that test skips with a line
 * saying so, except where CI is set, where it must run.
 */
function ensureNginx(): void {
  const found = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].some((path) => existsSync(path));
  if (found || process.env.NGINX_PATH) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    const message =
      "nginx is missing: the balancer test needs it. Install Debian's package (as root: apt-get update && apt-get install -y nginx) or set NGINX_PATH.";
    if (process.env.CI) {
      console.error(message);
      process.exit(1);
    }
    console.warn(`${message} The balancer test skips without it.`);
    return;
  }
  // Where no policy-rc.d stops it, the package starts its default server on port 80: stop that
  // one (the test runs nginx of its own on free ports, as this user).
  run('install nginx from Debian', 'sh', [
    '-c',
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null && { [ ! -s /run/nginx.pid ] || /usr/sbin/nginx -s quit; }',
  ]);
}

const vitestArgs = process.argv.slice(2);
ensureChromium();
ensureNginx();
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
