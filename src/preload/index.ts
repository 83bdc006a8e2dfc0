/**
 * The preload: runs sandboxed, bundled into one CommonJS file (a sandboxed preload
 * can only require Electron's renderer modules). It exposes the contract as
 * `window.fieldbook` and nothing else.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createFieldbookApi } from './api.ts';

contextBridge.exposeInMainWorld('fieldbook', createFieldbookApi(ipcRenderer));
