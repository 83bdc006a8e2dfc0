/**
 * What the browser mode adds to the page: one module script from its own origin,
 * placed before the app's module script (module scripts run in document order),
 * so `window.fieldbook` exists before the app starts. No inline script: the
 * app's CSP is served unchanged.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const BRIDGE_SOURCE = path.join(here, 'bridge.ts');
const PRELOAD_API_SOURCE = path.resolve(here, '../preload/api.ts');
const PRELOAD_API_SPECIFIER = '../preload/api.ts';

export function injectBridge(html: string, bridgePath: string): string {
  const tag = `<script type="module" src="${bridgePath}"></script>`;
  const appScript = html.search(/<script\b[^>]*type=["']?module/i);
  if (appScript !== -1) return `${html.slice(0, appScript)}${tag}\n    ${html.slice(appScript)}`;
  const headEnd = html.search(/<\/head>/i);
  return headEnd === -1 ? `${tag}${html}` : `${html.slice(0, headEnd)}${tag}${html.slice(headEnd)}`;
}

/** TypeScript to browser JavaScript: types erased, nothing else changed. */
function toBrowserScript(source: string, fileName: string): string {
  return ts.transpileModule(source, {
    fileName,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      verbatimModuleSyntax: false,
      sourceMap: false,
    },
  }).outputText;
}

export async function buildBridgeScript(
  preloadApiPath: string,
): Promise<{ bridge: string; preloadApi: string }> {
  const bridgeSource = await readFile(BRIDGE_SOURCE, 'utf8');
  if (!bridgeSource.includes(`'${PRELOAD_API_SPECIFIER}'`))
    throw new Error('bridge.ts no longer imports the preload API.');
  const bridge = toBrowserScript(bridgeSource, BRIDGE_SOURCE).replace(
    `'${PRELOAD_API_SPECIFIER}'`,
    `'${preloadApiPath}'`,
  );
  const preloadApi = toBrowserScript(await readFile(PRELOAD_API_SOURCE, 'utf8'), PRELOAD_API_SOURCE);
  return { bridge, preloadApi };
}
