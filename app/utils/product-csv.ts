// The products CSV file's shape, shared by the import page and the server.
/**
 * The file's columns, in the order the export writes them. `featured` and `made_to_order` are
 * yes or no (1/0, true/false too); a column left out of a file keeps each product's value. `version` is the product's version
 * when it was exported: a row that changes an existing product is refused when the product has
 * changed since (units sold, say), so a file never writes back a stock figure that is out of date.
 */
export const CSV_COLUMNS = [
  "slug",
  "title",
  "category",
  "price",
  "stock",
  "featured",
  "made_to_order",
  "description",
  "imgPath",
  "specifications",
  "version",
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
export const REQUIRED_COLUMNS: readonly CsvColumn[] = ["title", "category", "price", "description", "imgPath"];

export const IMPORT_MAX_BYTES = 1024 * 1024;
export const IMPORT_MAX_ROWS = 1000;

export const TOO_LARGE = "The file is larger than 1 MB: split it into smaller files";
