// The products CSV file's shape, shared by the import page and the server.
/**
 * A product's own columns, in the order the export writes them (the whole file until products had
 * variants, so a file of these alone still imports). `price` and `stock` are the row's variant's
 * (for a product without options, its only variant's: the product's own). `featured` and
 * `made_to_order` are yes or no (1/0, true/false too); a column left out of a file keeps each
 * product's value. `version` is the product's version when it was exported: a row that changes an
 * existing product is refused when the product has changed since (units sold, say), so a file
 * never writes back a stock figure that is out of date.
 */
export const PRODUCT_COLUMNS = [
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

/** At most this many options a product has, so option columns 1 to 3. */
export const CSV_OPTIONS = 3;
export const OPTION_COLUMNS = ["option1_name", "option1_value", "option2_name", "option2_value", "option3_name", "option3_value"] as const;

/**
 * A variant's own columns, after the product's: its option values (by option name, in the
 * product's option order; blank for a product without options), its SKU (the key a row is matched
 * by), whether it is sold (`active`: yes or no), its weight and dimensions (whole grams and
 * centimetres, blank when not known) and its version when exported (a row changing a variant sold
 * or edited since is refused).
 */
export const VARIANT_COLUMNS = [
  ...OPTION_COLUMNS,
  "sku",
  "active",
  "weight_grams",
  "length_cm",
  "width_cm",
  "height_cm",
  "variant_version",
] as const;

/** The file's columns, in the order the export writes them: one row per variant. */
export const CSV_COLUMNS = [...PRODUCT_COLUMNS, ...VARIANT_COLUMNS] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
export const REQUIRED_COLUMNS: readonly CsvColumn[] = ["title", "category", "price", "description", "imgPath"];
/** The weight and dimension columns, with the variant's field each fills. */
export const MEASURE_COLUMNS = [
  ["weight_grams", "weightGrams"],
  ["length_cm", "lengthCm"],
  ["width_cm", "widthCm"],
  ["height_cm", "heightCm"],
] as const;
/** The largest weight (grams: 5 tonnes) and dimension (centimetres: 50 m) a row may give. */
export const MEASURE_MAX = { weightGrams: 5_000_000, cm: 5_000 } as const;

export const IMPORT_MAX_BYTES = 1024 * 1024;
export const IMPORT_MAX_ROWS = 1000;

export const TOO_LARGE = "The file is larger than 1 MB: split it into smaller files";
