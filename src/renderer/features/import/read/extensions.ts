/** The file names the import accepts (the reader also checks the bytes). */
export const ACCEPTED_EXTENSIONS = ['.xlsx', '.xlsm', '.csv', '.tsv', '.txt'] as const;
