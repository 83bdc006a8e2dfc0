/** A file as a user drags it from the desktop: a DataTransfer made in the page, to dispatch with a `drop` event. */
import type { JSHandle, Page } from '@playwright/test';

export async function fileDataTransfer(page: Page, name: string, bytes: Buffer): Promise<JSHandle> {
  return page.evaluateHandle(
    ({ fileName, base64 }) => {
      // runs in the page (this file is type-checked without the DOM library)
      const dom = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: Uint8Array[], name: string) => unknown;
      };
      const binary = atob(base64);
      const data = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i += 1) data[i] = binary.charCodeAt(i);
      const transfer = new dom.DataTransfer();
      transfer.items.add(new dom.File([data], fileName));
      return transfer;
    },
    { fileName: name, base64: bytes.toString('base64') },
  );
}
