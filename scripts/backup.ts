// npm run backup [-- DIR]: one backup of the shop (app/lib/backup/backup.server.ts) into DIR, else
// BACKUP_DIR, else ./backups; prints the file's path. Safe while the shop runs. A failure is one
// line and exit 1, never a stack trace.
const USAGE = "usage: npm run backup [-- DIR]   (DIR: where to write it; default BACKUP_DIR, else ./backups)";

const args = process.argv.slice(2);
if (args.length > 1 || args.some((a) => a.startsWith("-"))) {
  console.error(USAGE);
  process.exit(2);
}

let closeDb: (() => Promise<void>) | null = null;
try {
  // Loaded here, not imported above: an invalid environment is then one line too.
  const { env } = await import("../app/lib/env.server");
  const { db } = await import("../app/lib/db.server");
  closeDb = () => db.destroy();
  const { createBackup, shopStorage } = await import("../app/lib/backup/backup.server");
  const made = await createBackup(shopStorage(), args[0] ?? env.BACKUP_DIR ?? "./backups");
  console.info(`backup written: ${made.file} (${made.bytes} bytes, ${made.images} image files, migration level ${made.level})`);
} catch (error) {
  const { failureText } = await import("../app/lib/outbox.server").catch(() => ({ failureText: (e: unknown) => String(e) }));
  console.error(`backup failed: ${error instanceof Error && error.name === "StartupError" ? error.message : failureText(error)}`);
  process.exitCode = 1;
} finally {
  await closeDb?.();
}

// A module (it awaits at its top level), with nothing to export.
export {};
