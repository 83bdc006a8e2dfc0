/** Downloads an export the way a user does (the button) and reads the file back as rows of text. */
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/universal';

export interface ExportedFile {
  fileName: string;
  rows: string[][];
}

export async function downloadExport(page: Page, button: Locator): Promise<ExportedFile> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = await download.path();
  const bytes = await readFile(path);
  const fileName = download.suggestedFilename();
  if (fileName.endsWith('.csv')) {
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    return { fileName, rows: Papa.parse<string[]>(text, { skipEmptyLines: true }).data };
  }
  const [sheet] = await readXlsxFile(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  );
  // a date cell (a day number with a date format) is read as a Date: back to the ISO day the CSV carries
  const text = (cell: unknown) =>
    cell === null ? '' : cell instanceof Date ? cell.toISOString().slice(0, 10) : String(cell);
  return { fileName, rows: (sheet?.data ?? []).map((row) => row.map(text)) };
}
