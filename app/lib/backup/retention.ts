// Backup file names and which of them the schedule keeps (ADR 0029). Pure: no file system.
// A name says when the backup was taken (UTC, to the second) and the migration level of its
// database (the highest migration number it had run): shop-2026-11-29T081512Z-m0026.tar, with
// -2, -3 … when a second backup falls in the same second.

const NAME = /^shop-(\d{4})-(\d{2})-(\d{2})T(\d{2})(\d{2})(\d{2})Z-m(\d{4})(?:-(\d{1,4}))?\.tar$/;
const MIGRATION_NUMBER = /^\d{4}-\d{2}-\d{2}-(\d{4})-/;

/** The highest migration number among applied migration names (2026-11-28-0026-… is 26); 0 for none. */
export function migrationLevel(migrations: readonly string[]): number {
  return Math.max(0, ...migrations.map((name) => Number(MIGRATION_NUMBER.exec(name)?.[1] ?? 0)));
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The file name of a backup taken at `at` of a database at migration `level`; `copy` > 1 for a second one in the same second. */
export function backupFileName(at: Date, level: number, copy = 1): string {
  const stamp =
    `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}` +
    `T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}Z`;
  return `shop-${stamp}-m${pad(level, 4)}${copy > 1 ? `-${copy}` : ""}.tar`;
}

/** When the backup named `name` was taken, or null for a name that is not a backup's. */
export function backupTime(name: string): Date | null {
  return parse(name)?.at ?? null;
}

function parse(name: string): { name: string; at: Date; copy: number } | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return at.getUTCDate() === day && at.getUTCHours() === hour ? { name, at, copy: Number(m[8] ?? 1) } : null;
}

/** The ISO week (Monday to Sunday, UTC) a moment falls in, as "2026-W48". */
function isoWeek(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday); // the Thursday of its week names the week's year
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  return `${day.getUTCFullYear()}-W${pad(Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7))}`;
}

export interface Retention {
  /** the newest backup of each of the last `daily` days that have one */
  daily: number;
  /** the newest backup of each of the last `weekly` ISO weeks that have one */
  weekly: number;
}

/**
 * Which backups to keep and which to delete: the newest of each of the `daily` most recent days
 * (UTC) that have a backup, and the newest of each of the `weekly` most recent ISO weeks, so the
 * newest backup is always kept. Names that are not backups' are in neither list: never deleted.
 */
export function backupsToKeep(names: readonly string[], keep: Retention): { keep: string[]; remove: string[] } {
  const dated = names
    .map(parse)
    .filter((b) => b !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime() || b.copy - a.copy);
  const kept = new Set<string>();
  const pick = (limit: number, period: (at: Date) => string) => {
    const seen = new Set<string>();
    for (const { name, at } of dated) {
      const key = period(at);
      if (seen.has(key)) continue;
      if (seen.size >= limit) break;
      seen.add(key);
      kept.add(name);
    }
  };
  pick(keep.daily, (at) => at.toISOString().slice(0, 10));
  pick(keep.weekly, isoWeek);
  return {
    keep: dated.filter((b) => kept.has(b.name)).map((b) => b.name),
    remove: dated.filter((b) => !kept.has(b.name)).map((b) => b.name),
  };
}
