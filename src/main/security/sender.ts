/**
 * Who may call the IPC handlers: only the main frame of a page of the app's own
 * origin. An iframe (even one of ours), a page navigated elsewhere, or a frame
 * already gone (Electron then reports `senderFrame === null`) is refused.
 */
import { isOwnUrl } from './origin.ts';

export interface SenderInfo {
  url: string;
  isMainFrame: boolean;
}

/** `devOrigin`: the electron-vite dev server's origin, only when running unpackaged in development. */
export function isTrustedSender(sender: SenderInfo | null, devOrigin?: string | null): boolean {
  if (!sender || !sender.isMainFrame) return false;
  return isOwnUrl(sender.url, devOrigin);
}

/** The parts of Electron's `WebFrameMain` the check reads (so it can be tested without Electron). */
export interface FrameLike {
  url: string;
  parent: unknown;
}

export function describeSenderFrame(frame: FrameLike | null | undefined): SenderInfo | null {
  if (!frame) return null;
  return { url: frame.url, isMainFrame: frame.parent === null };
}
