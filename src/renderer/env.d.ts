/// <reference types="vite/client" />
import type { FieldbookApi } from '../shared/ipc.ts';

declare global {
  interface Window {
    /** main's API: from the preload in the app, from the WebSocket bridge in the browser harness */
    fieldbook?: FieldbookApi;
  }
}
