/**
 * How the compliance report's print view becomes a PDF: the same page sizes,
 * margins and page-number footer in the app (Electron's webContents.printToPDF)
 * and in the browser harness (Chromium's own printing, Playwright's page.pdf).
 * The table's header repeats on every page through the print CSS (thead).
 */
export const PDF_PAGE_SIZES = ['A4', 'Letter'] as const;
export type PdfPageSize = (typeof PDF_PAGE_SIZES)[number];

/** Margins in millimetres (the footer sits in the bottom one). */
const PDF_MARGINS_MM = { top: 12, bottom: 16, left: 12, right: 12 } as const;

/** Rendered by Chromium's printing outside the page: "Page 2 of 5", centred. */
const PDF_FOOTER_TEMPLATE =
  '<div style="font-size:8px;width:100%;text-align:center;color:#444">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>';
const PDF_HEADER_TEMPLATE = '<span></span>';

/** Options of Electron's printToPDF (margins in inches). */
export function electronPdfOptions(pageSize: PdfPageSize) {
  const inches = (mm: number) => mm / 25.4;
  return {
    pageSize,
    printBackground: true,
    displayHeaderFooter: true,
    headerTemplate: PDF_HEADER_TEMPLATE,
    footerTemplate: PDF_FOOTER_TEMPLATE,
    margins: {
      top: inches(PDF_MARGINS_MM.top),
      bottom: inches(PDF_MARGINS_MM.bottom),
      left: inches(PDF_MARGINS_MM.left),
      right: inches(PDF_MARGINS_MM.right),
    },
  };
}

/** The same options for Chromium's printing driven by Playwright (page.pdf). */
export function chromiumPdfOptions(pageSize: PdfPageSize) {
  const mm = (n: number) => `${n}mm`;
  return {
    format: pageSize,
    printBackground: true,
    displayHeaderFooter: true,
    headerTemplate: PDF_HEADER_TEMPLATE,
    footerTemplate: PDF_FOOTER_TEMPLATE,
    margin: {
      top: mm(PDF_MARGINS_MM.top),
      bottom: mm(PDF_MARGINS_MM.bottom),
      left: mm(PDF_MARGINS_MM.left),
      right: mm(PDF_MARGINS_MM.right),
    },
  };
}
