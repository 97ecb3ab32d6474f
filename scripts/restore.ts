// npm run restore -- FILE [--replace]: restores a backup of `npm run backup` (or of the schedule)
// into the shop that DATABASE_URL and DATA_DIR name (app/lib/backup/backup.server.ts). Stop the
// shop first. Refusals are one line and a non-zero exit (docs/operations.md, Backups): 2 usage or
// no such file, 3 the database is not empty (give --replace), 4 the backup comes from a newer
// version, 5 the file is damaged or not a backup, 6 another kind of database or image store;
// 1 anything else. Never a stack trace.
const USAGE = "usage: npm run restore -- FILE [--replace]   (--replace: replace a database that is not empty)";

const args = process.argv.slice(2);
const replace = args.includes("--replace");
const files = args.filter((a) => a !== "--replace");
if (files.length !== 1 || files[0]!.startsWith("-")) {
  console.error(USAGE);
  process.exit(2);
}
const file = files[0]!;

let closeDb: (() => Promise<void>) | null = null;
try {
  // Loaded here, not imported above: an invalid environment is then one line too.
  const { db } = await import("../app/lib/db.server");
  closeDb = () => db.destroy();
  const { restoreBackup, shopStorage } = await import("../app/lib/backup/backup.server");
  const restored = await restoreBackup(file, shopStorage(), { replace });
  const { manifest, migrated, images } = restored;
  const forward = migrated.length ? `; migrated forward: ${migrated.join(", ")}` : "";
  const what =
    manifest.imageStore === "disk" ? `${manifest.database}, ${images} image files` : `${manifest.database}, images in the database`;
  console.info(`restored ${file}, taken ${manifest.createdAt} (${what})${forward}`);
} catch (error) {
  const refusal = error as { name?: string; message?: string; exitCode?: number } | null;
  if (refusal?.name === "BackupRefusal" || refusal?.name === "DamagedBackup") {
    const what = refusal.name === "DamagedBackup" ? `${file} is damaged or not a backup of this shop: ` : "";
    console.error(`restore refused: ${what}${refusal.message}`);
    process.exitCode = refusal.exitCode ?? 1;
  } else {
    const { failureText } = await import("../app/lib/outbox.server").catch(() => ({ failureText: (e: unknown) => String(e) }));
    console.error(`restore failed: ${refusal?.name === "StartupError" ? refusal.message : failureText(error)}`);
    process.exitCode = 1;
  }
} finally {
  await closeDb?.();
}

// A module (it awaits at its top level), with nothing to export.
export {};
