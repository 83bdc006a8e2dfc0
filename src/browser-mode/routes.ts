/** Where the browser mode serves what it adds to the built renderer (one origin: 127.0.0.1 and its port). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** the renderer electron-vite builds (`npm run build`) */
export const DEFAULT_RENDERER_DIR = path.join(projectRoot, 'out/renderer');
export const WS_PATH = '/__harness/ws';
export const BRIDGE_PATH = '/__harness/bridge.js';
export const PRELOAD_API_PATH = '/__harness/preload-api.js';
