export declare const FIXTURES: string;
export declare function makeSmall(): void;
/** Path of a cached workbook ('xlsx', made by LibreOffice) or CSV of `rows` people in 10 columns. */
export declare function makeBig(rows: number, format?: 'xlsx' | 'csv'): string;
