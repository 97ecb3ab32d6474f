// Reading a products CSV file for the import: the uploaded file as UTF-8 text, its records with
// the line each starts on, the header's columns, and the cells that are not plain text (yes/no,
// the specifications' JSON). What is wrong is reported by line, as an ImportRejected.
import { CsvError, parse } from "csv-parse/sync";
import { AppError } from "~/lib/errors.server";
import type { CsvColumn } from "~/utils/product-csv";
import { CSV_COLUMNS, CSV_OPTIONS, IMPORT_MAX_BYTES, REQUIRED_COLUMNS, TOO_LARGE } from "~/utils/product-csv";

export const NOTHING_IMPORTED = "Nothing was imported: fix these rows and upload the file again.";
export const CHOOSE_FILE = "Choose a CSV file to import";
const SAVE_AS_CSV = 'in your spreadsheet choose Save As → "CSV UTF-8", then upload that file';
export const SPREADSHEET = `That is a spreadsheet file, not CSV: ${SAVE_AS_CSV}`;
export const NOT_UTF8 = `The file is not UTF-8 text: ${SAVE_AS_CSV}`;

/** One problem of an import: the CSV line it is on (the header is line 1) and what is wrong. */
export interface ImportProblem {
  line: number;
  message: string;
}

/** The import was refused as a whole: every problem found, row by row. */
export class ImportRejected extends AppError {
  constructor(public problems: ImportProblem[]) {
    super(400, NOTHING_IMPORTED);
    this.name = "ImportRejected";
  }
}

/** A refusal of the uploaded file itself, shown beside the form's file field. */
const fileError = (message: string, status: 400 | 413 = 400) => new AppError(status, message, { fieldErrors: { file: message } });

/** The uploaded file as text: a non-empty UTF-8 file, not a spreadsheet's own format. */
export async function uploadedText(file: FormDataEntryValue | null): Promise<string> {
  if (file === null || typeof file === "string" || file.size === 0) throw fileError(CHOOSE_FILE);
  if (/\.(xlsx|xlsm|xlsb|xls|ods|numbers)$/i.test(file.name)) throw fileError(SPREADSHEET);
  if (file.size > IMPORT_MAX_BYTES) throw fileError(TOO_LARGE, 413);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    throw fileError(NOT_UTF8);
  }
}

export interface CsvRecord {
  /** the line the record starts on (a quoted cell may span several) */
  line: number;
  cells: string[];
}

/** The file's records with the line each starts on; blank lines are skipped. */
export function readRecords(text: string): CsvRecord[] {
  const buf = Buffer.from(text, "utf8");
  let entries: { record: string[]; info: { bytes: number } }[];
  try {
    entries = parse(buf, {
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as unknown as typeof entries;
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === "number" ? error.lines : 1;
      throw new ImportRejected([{ line, message: `The file is not valid CSV: ${error.message}` }]);
    }
    throw error;
  }
  // Walk the bytes once: each record starts after the previous one's end, past any blank lines.
  let pos = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  let line = 1;
  const advance = (to: number) => {
    for (; pos < to && pos < buf.length; pos++) {
      if (buf[pos] === 0x0a || (buf[pos] === 0x0d && buf[pos + 1] !== 0x0a)) line++;
    }
  };
  return entries.map(({ record, info }) => {
    while (pos < buf.length && (buf[pos] === 0x0a || buf[pos] === 0x0d)) advance(pos + 1);
    const start = line;
    advance(info.bytes);
    return { line: start, cells: record };
  });
}

export type ColumnIndex = Map<CsvColumn, number>;

export function readHeader(header: CsvRecord): ColumnIndex {
  const index: ColumnIndex = new Map();
  const problems: string[] = [];
  header.cells.forEach((cell, i) => {
    const name = cell.trim();
    if (!name) return; // an unnamed column (a spreadsheet's trailing comma) is ignored
    const column = CSV_COLUMNS.find((c) => c.toLowerCase() === name.toLowerCase());
    const option = /^option(\d+)_(name|value)$/i.exec(name);
    if (!column && option && Number(option[1]) > CSV_OPTIONS) {
      problems.push(`A product has at most ${CSV_OPTIONS} options: there is no column "${name}"`);
    } else if (!column) problems.push(`Unknown column "${name}": the columns are ${CSV_COLUMNS.join(", ")}`);
    else if (index.has(column)) problems.push(`The column "${column}" appears twice`);
    else index.set(column, i);
  });
  for (const column of REQUIRED_COLUMNS) {
    if (!index.has(column)) problems.push(`The header has no "${column}" column (required: ${REQUIRED_COLUMNS.join(", ")})`);
  }
  if (problems.length) throw new ImportRejected(problems.map((message) => ({ line: header.line, message })));
  return index;
}

const SPECS_FORMAT = 'Specifications must be a JSON object of names and values, like {"Material":"Teak"}';

/** The specifications cell as the form's key/value rows, or what is wrong with it. */
export function readSpecifications(cell: string): { keys: string[]; values: string[] } | string {
  const text = cell.trim();
  if (!text) return { keys: [], values: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `Specifications are not valid JSON. ${SPECS_FORMAT}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return SPECS_FORMAT;
  const entries = Object.entries(value);
  const notText = entries.find(([, v]) => typeof v !== "string");
  if (notText) return `Specifications: the value of "${notText[0]}" must be text in quotes, like {"${notText[0]}":"…"}`;
  return { keys: entries.map(([k]) => k), values: entries.map(([, v]) => v as string) };
}

/** A yes/no cell (featured, made_to_order): yes, true, 1, y; no, false, 0, n or blank; else null. */
export function readYesNo(cell: string): boolean | null {
  const value = cell.trim().toLowerCase();
  if (["yes", "true", "1", "y"].includes(value)) return true;
  if (["no", "false", "0", "n", ""].includes(value)) return false;
  return null;
}
