// What `npm start` and `npm test` check before anything else: the Node version
// (from package.json's "engines", so there is one place to change it) and, for
// the browser harness, a free port. Plain ESM JavaScript with no syntax or API
// newer than Node 14, so an old Node gets this sentence rather than
// "bad option: --experimental-strip-types".
import { readFileSync } from 'node:fs';
import net from 'node:net';

/** ">=22.13" from package.json's engines.node. */
export function requiredNodeRange(packageJsonPath) {
  const engines = JSON.parse(readFileSync(packageJsonPath, 'utf8')).engines || {};
  return engines.node || '>=0';
}

/** null when `version` ("v22.13.1") satisfies ">=X.Y[.Z]", else the sentence to print. */
export function nodeVersionProblem(version, range) {
  const wanted = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!wanted) return null;
  const need = [Number(wanted[1]), Number(wanted[2] || 0), Number(wanted[3] || 0)];
  const have = version
    .replace(/^v/, '')
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < 3; i++) {
    if ((have[i] || 0) > need[i]) return null;
    if ((have[i] || 0) < need[i]) {
      const needed = need.join('.');
      const running = version.replace(/^v/, '');
      return (
        `Fieldbook needs Node ${needed} or newer (it runs TypeScript with --experimental-strip-types); this is Node ${running}. ` +
        'Install a current Node (https://nodejs.org, or `nvm install 22`) and run the command again.'
      );
    }
  }
  return null;
}

/** Whether 127.0.0.1:`port` can be listened on right now. */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The harness's port: FIELDBOOK_PORT when set (refused with a sentence when
 * busy), else 5180 or, when that is busy, the next free one of the ten after
 * it. Each port is its own origin, so its own offline cache: the note says so.
 */
export async function choosePort(env, isFree = portIsFree, preferred = 5180) {
  if (env.FIELDBOOK_PORT) {
    const port = Number(env.FIELDBOOK_PORT);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      return { port: null, message: `FIELDBOOK_PORT=${env.FIELDBOOK_PORT} is not a port number (1-65535).` };
    if (await isFree(port)) return { port, message: null };
    return {
      port: null,
      message: `Port ${port} (FIELDBOOK_PORT) is already in use on 127.0.0.1. Close what uses it, or choose another: FIELDBOOK_PORT=5190 npm start`,
    };
  }
  for (let port = preferred; port <= preferred + 10; port++) {
    if (!(await isFree(port))) continue;
    const message =
      port === preferred
        ? null
        : `Port ${preferred} is in use (another Fieldbook?), so this one uses ${port}. Its offline cache is separate from ${preferred}'s; set FIELDBOOK_PORT to choose the port.`;
    return { port, message };
  }
  const last = preferred + 10;
  return {
    port: null,
    message: `Ports ${preferred}-${last} are all in use on 127.0.0.1. Choose a free one: FIELDBOOK_PORT=6000 npm start`,
  };
}

/** The one line `npm start` prints when it serves the harness: who can read its offline cache once it stops. */
export function harnessCacheNote(port) {
  return `Note: the browser keeps the harness's offline cache under http://127.0.0.1:${port}; once the harness stops, any program on this computer that takes that port can read it through your browser (the desktop app is not exposed this way; see README).`;
}

/**
 * The harness's port for `npm start`, having said why when it is not 5180; exits with the reason when none can be used.
 */
export async function harnessPortOrExit(env) {
  const chosen = await choosePort(env);
  if (chosen.message) console.log(chosen.message);
  if (chosen.port === null) process.exit(1);
  return String(chosen.port);
}
