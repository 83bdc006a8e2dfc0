#!/usr/bin/env node
// Static security audit (issue 5), called by `npm test`:
//  1. Electronegativity over `src` and over the built `out` (built first when missing):
//     zero findings, or exit 1 with each finding listed.
//  2. `npm audit --omit=dev`: no high or critical advisory in what ships.
//     When the registry's advisory endpoint cannot be reached, that is said
//     plainly and does not fail the run (set AUDIT_REQUIRE_NPM=1 to make it fail).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));

// Checks left out, each with its reason:
const EXCLUDED_CHECKS = [
  // needs the internet (downloads Electron's release list)
  'AvailableSecurityFixesGlobalCheck',
  // a manual-review marker on every openExternal call whose URL is not a constant. The app's one
  // call (window-open handler) passes isPublicDestination first (src/main/security/external-links.ts:
  // unit tests with javascript:, file:, userinfo, loopback and 127.0.0.1.nip.io-style names, and a
  // DNS answer with a local address; src/main/index.test.ts checks the handler is installed).
  'OpenExternalJSCheck',
  // a manual-review marker on every window with a preload. Ours is one bundled file that exposes
  // exactly the IPC contract (src/preload/api.ts, `satisfies FieldbookApi`; unit tests check that
  // it has no ipcRenderer, no generic invoke/on, and strips the IPC event from listeners).
  'PreloadJSCheck',
];

// csp-evaluator's only remark on our policy: "'self' can be problematic if you host JSONP,
// Angular or user uploaded files". app://fieldbook/ serves the built renderer and nothing else
// (no JSONP, no Angular, no uploads), so that "maybe weak" note is accepted — but only while the
// policy in csp.ts still draws exactly that one remark: any other finding fails the audit.
const KNOWN_CSP_REMARKS = [
  "script-src 'self' 'self' can be problematic if you host JSONP, Angular or user uploaded files.",
];

function cspDrawsOnlyKnownRemarks() {
  const source = readFileSync(path.join(root, 'src/main/security/csp.ts'), 'utf8');
  const policy = /headers\['Content-Security-Policy'\] =\s*"([^"]+)"/.exec(source)?.[1];
  if (!policy) return false;
  const csp = require(
    require.resolve('@doyensec/csp-evaluator', {
      paths: [path.dirname(require.resolve('@doyensec/electronegativity/package.json'))],
    }),
  );
  const remarks = new csp.CspEvaluator(new csp.CspParser(policy).csp, csp.Version.CSP3)
    .evaluate()
    .filter((finding) => finding.severity <= csp.severities.MEDIUM_MAYBE)
    .map((finding) => `${finding.directive} ${finding.value} ${finding.description}`);
  return remarks.every((remark) => KNOWN_CSP_REMARKS.includes(remark));
}

function isAcceptedCspNote(result) {
  return (
    result.ruleId === 'CSP_GLOBAL_CHECK' &&
    result.level === 'note' &&
    /seems to be vulnerable/.test(result.message?.text ?? '') &&
    cspDrawsOnlyKnownRemarks()
  );
}

function electronegativity(input) {
  const packageJson = require.resolve('@doyensec/electronegativity/package.json');
  const cli = path.join(
    path.dirname(packageJson),
    JSON.parse(readFileSync(packageJson, 'utf8')).bin.electronegativity,
  );
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'fieldbook-audit-'));
  const sarif = path.join(workDir, 'result.sarif');
  try {
    // The Electron version is given (it cannot find package.json inside src/ or out/), so the
    // checks judge our Electron's defaults, not those of Electron 0.1.
    const electronVersion = JSON.parse(
      readFileSync(require.resolve('electron/package.json'), 'utf8'),
    ).version;
    const args = [
      cli,
      '-i',
      input,
      '-x',
      EXCLUDED_CHECKS.join(','),
      '-e',
      electronVersion,
      '-r',
      '-o',
      sarif,
    ];
    const run = spawnSync(
      process.execPath,
      ['--import', path.join(root, 'scripts/electronegativity-offline.mjs'), ...args],
      { cwd: root, encoding: 'utf8', env: { ...process.env, LANG: 'en-US' } },
    );
    // a file the scanner cannot parse is a file it did not check: that fails the audit
    const unparsed = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => /Error parsing/.test(line));
    if (unparsed.length > 0)
      return { error: `Electronegativity could not read some files:\n    ${unparsed.join('\n    ')}` };
    if (run.status !== 0 || !existsSync(sarif)) {
      const lastLines = (run.stderr || run.stdout).trim().split('\n').slice(-3).join(' ');
      return { error: `Electronegativity failed on ${input}: ${lastLines}` };
    }
    const report = JSON.parse(readFileSync(sarif, 'utf8'));
    const findings = (report.runs ?? [])
      .flatMap((sarifRun) => sarifRun.results ?? [])
      .filter((result) => !isAcceptedCspNote(result));
    return {
      findings: findings.map((result) => {
        const location = result.locations?.[0]?.physicalLocation;
        const where = location
          ? `${location.artifactLocation?.uri ?? '?'}:${location.region?.startLine ?? '?'}`
          : '(global)';
        return `${result.ruleId} ${where} ${result.message?.text ?? ''}`.trim();
      }),
    };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * A copy of out/ that the scanner can parse: its parser predates class private
 * fields (`#field`), which the main bundle uses, so main and preload are lowered
 * to ES2021 with TypeScript (syntax only; nothing else changes).
 */
function scannableCopyOfOut() {
  const ts = require('typescript');
  const copy = mkdtempSync(path.join(os.tmpdir(), 'fieldbook-audit-out-'));
  cpSync(path.join(root, 'out'), copy, { recursive: true });
  for (const part of ['main', 'preload']) {
    const dir = path.join(copy, part);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir, { recursive: true })) {
      const file = path.join(dir, String(name));
      if (!/\.(c|m)?js$/.test(file)) continue;
      const lowered = ts.transpileModule(readFileSync(file, 'utf8'), {
        fileName: file,
        compilerOptions: { allowJs: true, target: ts.ScriptTarget.ES2021, module: ts.ModuleKind.ESNext },
      });
      writeFileSync(file, lowered.outputText);
    }
  }
  return copy;
}

function ensureBuilt() {
  if (
    existsSync(path.join(root, 'out/main')) &&
    existsSync(path.join(root, 'out/preload')) &&
    existsSync(path.join(root, 'out/renderer'))
  )
    return true;
  console.log('audit: out/ is missing, building it (electron-vite build)...');
  const packageJson = require.resolve('electron-vite/package.json');
  const { bin } = JSON.parse(readFileSync(packageJson, 'utf8'));
  const cli = path.join(path.dirname(packageJson), typeof bin === 'string' ? bin : bin['electron-vite']);
  return spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: 'inherit' }).status === 0;
}

function npmAudit() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // ~/.npmrc may say audit=false: that only affects `npm install`; `--audit` is passed anyway.
  const run = spawnSync(npm, ['audit', '--omit=dev', '--audit', '--json'], {
    cwd: root,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    return { unavailable: `npm audit gave no report (${(run.stderr || '').trim().split('\n').pop()})` };
  }
  if (!report.metadata) {
    const why = report.message ?? report.error?.summary ?? 'no answer';
    return { unavailable: `npm audit could not reach the advisory endpoint: ${why}` };
  }
  const serious = Object.values(report.vulnerabilities ?? {}).filter(
    (v) => v.severity === 'high' || v.severity === 'critical',
  );
  return { findings: serious.map((v) => `${v.severity}: ${v.name} (${v.range})`) };
}

let failed = false;
const fail = (line) => {
  failed = true;
  console.error(line);
};

if (!ensureBuilt()) fail('audit: the build failed, so out/ could not be scanned.');
for (const input of ['src', 'out']) {
  if (!existsSync(path.join(root, input))) continue;
  const scanned = input === 'out' ? scannableCopyOfOut() : path.join(root, input);
  const result = electronegativity(scanned);
  if (input === 'out') rmSync(scanned, { recursive: true, force: true });
  if (result.error) fail(`audit: ${result.error}`);
  else if (result.findings.length > 0) {
    fail(`audit: Electronegativity found ${result.findings.length} issue(s) in ${input}/:`);
    for (const finding of result.findings) fail(`  - ${finding}`);
  } else
    console.log(
      `audit: Electronegativity: no findings in ${input}/ (excluded: ${EXCLUDED_CHECKS.join(', ')}).`,
    );
}

const npmResult = npmAudit();
if (npmResult.unavailable) {
  const line = `audit: ${npmResult.unavailable}; production dependencies were NOT checked for advisories.`;
  if (process.env.AUDIT_REQUIRE_NPM === '1') fail(line);
  else console.warn(line);
} else if (npmResult.findings.length > 0) {
  fail(
    `audit: npm audit reports ${npmResult.findings.length} high/critical advisory(ies) in production dependencies:`,
  );
  for (const finding of npmResult.findings) fail(`  - ${finding}`);
} else console.log('audit: npm audit --omit=dev: no high or critical advisory.');

process.exit(failed ? 1 : 0);
