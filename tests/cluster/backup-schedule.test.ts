// A scheduled backup (BACKUP_DIR + BACKUP_EVERY_HOURS) is made by one server of the cluster, not
// by each: both servers' workers try for the "backup" lease as they start, and only the one that
// takes it writes the backup (app/lib/housekeeping.server.ts). Both servers are told the same
// folder, as a deployment would tell them a shared volume; each server's own log says which wrote.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eventually } from "../support/cluster/client";
import { clusterForFile, query as sql } from "../support/cluster/setup";

const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), "cluster-backups-"));
const cluster = clusterForFile({ BACKUP_DIR: backupDir, BACKUP_EVERY_HOURS: "1" });

/** The finished backups in the folder (a backup being written is a dot-file or a `.partial`). */
const backups = () => fs.readdirSync(backupDir).filter((name) => /^shop-.*\.tar$/.test(name));
const wroteBackup = (logFile: string) => fs.readFileSync(logFile, "utf8").includes("backup: wrote");

describe("scheduled backups on two servers", () => {
  it("one of the two servers makes the hour's backup; the other does not make one too", async () => {
    try {
      await eventually(
        async () => backups(),
        (names) => names.length >= 1,
        "a scheduled backup in BACKUP_DIR",
        60_000,
      );
      // Both workers started with the servers and tried for the lease at once; give the loser's
      // attempt time to have run (its next try is a minute away, and the lease lasts the hour).
      await new Promise((resolve) => setTimeout(resolve, 5000));
      expect(backups()).toHaveLength(1);
      const writers = cluster().servers.filter((server) => wroteBackup(server.logFile));
      expect(writers.map((server) => server.name)).toHaveLength(1);
      // The shop recorded it for every server's /admin.
      const [recorded] = await sql<{ value: string }>(cluster(), "select value from settings where key = 'backup-last-success'");
      expect((JSON.parse(recorded!.value) as { file: string }).file).toBe(backups()[0]);
    } finally {
      fs.rmSync(backupDir, { recursive: true, force: true });
    }
  });
});
