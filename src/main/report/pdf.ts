/**
 * `report:savePdf`: the report's print view, printed by the window showing it
 * (Electron's webContents.printToPDF, given as `host`), saved where the user
 * picks in a save dialog. Thin on purpose: Electron is reached only through
 * the host, so a fake stands in for it in tests.
 */
import path from 'node:path';
import { electronPdfOptions, type PdfPageSize } from '../../shared/report-pdf.ts';
import { FieldbookError } from '../ipc/errors.ts';

export interface PdfHost {
  printToPDF(options: ReturnType<typeof electronPdfOptions>): Promise<Uint8Array>;
  showSaveDialog(options: {
    defaultPath: string;
    filters: { name: string; extensions: string[] }[];
  }): Promise<{ canceled: boolean; filePath?: string }>;
  writeFile(filePath: string, data: Uint8Array): Promise<void>;
}

export interface PdfSaved {
  saved: boolean;
  /** the file's name (not its folder), for "Saved as …" */
  fileName?: string;
}

/** A file name without folders or characters file systems refuse, ending in .pdf. */
export function pdfFileName(suggested: string): string {
  const printable = [...suggested].map((ch) => (ch.charCodeAt(0) < 32 ? ' ' : ch)).join('');
  const base =
    printable
      .replace(/[\\/:*?"<>|]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 150) || 'Compliance report';
  return base.toLowerCase().endsWith('.pdf') ? base : `${base}.pdf`;
}

export function createPdfSaver(host: PdfHost) {
  return async (arg: { pageSize: PdfPageSize; fileName: string }): Promise<PdfSaved> => {
    // printed first: the window still shows the report while the dialog is open
    const data = await host.printToPDF(electronPdfOptions(arg.pageSize));
    const picked = await host.showSaveDialog({
      defaultPath: pdfFileName(arg.fileName),
      filters: [{ name: 'PDF', extensions: ['pdf'] }],
    });
    if (picked.canceled || !picked.filePath) return { saved: false };
    const target = picked.filePath.toLowerCase().endsWith('.pdf')
      ? picked.filePath
      : `${picked.filePath}.pdf`;
    await host.writeFile(target, data);
    return { saved: true, fileName: path.basename(target) };
  };
}

/** The channel's body: the saver the shell gave, or a clear refusal where there is none (the browser harness). */
export async function savePdfOrRefuse(
  saver: ((arg: { pageSize: PdfPageSize; fileName: string }) => Promise<PdfSaved>) | undefined,
  arg: { pageSize: PdfPageSize; fileName: string },
): Promise<PdfSaved> {
  if (!saver)
    throw new FieldbookError(
      'rejected',
      'Saving a PDF needs the desktop app. Here, use the print command of the browser.',
    );
  return saver(arg);
}
