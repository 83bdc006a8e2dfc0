import { describe, expect, it } from 'vitest';
import { createPdfSaver, pdfFileName, type PdfHost } from './pdf.ts';

function fakeHost(dialog: { canceled: boolean; filePath?: string }) {
  const calls: string[] = [];
  const written = new Map<string, Uint8Array>();
  const host: PdfHost = {
    printToPDF: async (options) => {
      calls.push(`print ${options.pageSize} footer:${options.footerTemplate.includes('pageNumber')}`);
      return new Uint8Array([37, 80, 68, 70]);
    },
    showSaveDialog: async (options) => {
      calls.push(`dialog ${options.defaultPath}`);
      return dialog;
    },
    writeFile: async (file, data) => {
      calls.push(`write ${file}`);
      written.set(file, data);
    },
  };
  return { host, calls, written };
}

describe('saving the report as a PDF', () => {
  it('prints the page at the chosen size with page numbers, then writes the file the user picked', async () => {
    const { host, calls, written } = fakeHost({ canceled: false, filePath: '/home/ann/Riverside' });
    const saved = await createPdfSaver(host)({
      pageSize: 'Letter',
      fileName: 'Compliance report – Riverside',
    });
    expect(calls).toEqual([
      'print Letter footer:true',
      'dialog Compliance report – Riverside.pdf',
      'write /home/ann/Riverside.pdf',
    ]);
    expect(saved).toEqual({ saved: true, fileName: 'Riverside.pdf' });
    expect(written.get('/home/ann/Riverside.pdf')).toEqual(new Uint8Array([37, 80, 68, 70]));
  });

  it('writes nothing when the user cancels the dialog', async () => {
    const { host, written } = fakeHost({ canceled: true });
    expect(await createPdfSaver(host)({ pageSize: 'A4', fileName: 'x' })).toEqual({ saved: false });
    expect(written.size).toBe(0);
  });

  it('suggests a file name without folders or characters a file system refuses', () => {
    expect(pdfFileName('../../etc/Site: North?')).toBe('.. .. etc Site North.pdf');
    expect(pdfFileName('')).toBe('Compliance report.pdf');
  });
});
