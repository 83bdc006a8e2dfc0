/**
 * A stand-in for Electron's distribution, for packaging tests on machines that
 * cannot download Electron: what electron-builder copies from `electronDist`
 * (the executable, resources/, locales/, LICENSE), the executable being a small
 * shell script that carries Electron's fuse wire, as the real binary does, so the
 * afterPack step can flip it and a test can read it back.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** @electron/fuses' marker, then the wire's version (1), its length and one byte per fuse. */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron's own defaults: run-as-node, NODE_OPTIONS, --inspect, file:// privileges and WASM trap handlers on. */
const ELECTRON_DEFAULT_WIRE = '101100011';

/** An executable at `file` that prints a line and carries the default fuse wire. */
export function writeFusedExecutable(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const script = Buffer.from('#!/bin/sh\necho "stand-in Electron: it opens no window"\nexit 0\n# ');
  const wire = Buffer.concat([
    Buffer.from(SENTINEL),
    Buffer.from([1, ELECTRON_DEFAULT_WIRE.length]),
    Buffer.from(`${ELECTRON_DEFAULT_WIRE}\n`),
  ]);
  writeFileSync(file, Buffer.concat([script, wire]));
  chmodSync(file, 0o755);
}

/** A Linux Electron distribution folder electron-builder accepts as `electronDist`. */
export function writeStandInDistribution(dir: string): void {
  writeFusedExecutable(path.join(dir, 'electron'));
  mkdirSync(path.join(dir, 'resources'), { recursive: true });
  mkdirSync(path.join(dir, 'locales'), { recursive: true });
  writeFileSync(path.join(dir, 'locales', 'en-US.pak'), '');
  writeFileSync(path.join(dir, 'LICENSE'), 'stand-in for Electron (MIT)\n');
}
