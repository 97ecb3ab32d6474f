import { describe, expect, it } from "vitest";
import { backupFileName, backupsToKeep, backupTime, migrationLevel } from "./retention";

const at = (iso: string) => new Date(iso);
const name = (iso: string, level = 26) => backupFileName(at(iso), level);

describe("backup file names", () => {
  it("say the time to the second in UTC and the migration level, and read back", () => {
    expect(name("2026-11-29T08:15:07.420Z")).toBe("shop-2026-11-29T081507Z-m0026.tar");
    expect(backupFileName(at("2026-01-02T03:04:05Z"), 7, 2)).toBe("shop-2026-01-02T030405Z-m0007-2.tar");
    expect(backupTime("shop-2026-11-29T081507Z-m0026.tar")).toEqual(at("2026-11-29T08:15:07Z"));
    expect(backupTime("shop-2026-11-29T081507Z-m0026-3.tar")).toEqual(at("2026-11-29T08:15:07Z"));
  });

  it("are not read into anything else", () => {
    for (const other of [
      "notes.txt",
      "shop-2026-11-29T081507Z-m0026.tar.partial",
      ".shop-2026-11-29T081507Z-m0026.tar",
      "shop-2026-02-30T000000Z-m0001.tar",
    ]) {
      expect(backupTime(other), other).toBeNull();
    }
  });

  it("take the level from the highest migration number", () => {
    expect(migrationLevel(["2026-11-22-0001-initial-schema", "2026-11-28-0026-payment-order-order-id", "2026-11-23-0009-x"])).toBe(26);
    expect(migrationLevel([])).toBe(0);
  });
});

describe("which backups the schedule keeps", () => {
  it("keeps the newest of each of the last N days and of each of the last M weeks, and deletes the rest", () => {
    // Every 6 hours from Sunday 2026-11-01 to Sunday 2026-11-29 (ISO weeks 44 to 48).
    const names: string[] = [];
    for (let t = Date.parse("2026-11-01T00:00:00Z"); t <= Date.parse("2026-11-29T18:00:00Z"); t += 6 * 3600_000) {
      names.push(backupFileName(new Date(t), 26));
    }
    const { keep, remove } = backupsToKeep([...names].reverse(), { daily: 3, weekly: 3 });
    expect(keep).toEqual([
      name("2026-11-29T18:00:00Z"), // newest: today's (and week 48's)
      name("2026-11-28T18:00:00Z"),
      name("2026-11-27T18:00:00Z"),
      name("2026-11-22T18:00:00Z"), // Sunday: the end of week 47
      name("2026-11-15T18:00:00Z"), // week 46
    ]);
    expect(keep.length + remove.length).toBe(names.length);
    expect(remove).toContain(name("2026-11-29T12:00:00Z"));
  });

  it("counts days and weeks that have a backup, not calendar days: a gap loses nothing", () => {
    const names = [name("2026-11-29T01:00:00Z"), name("2026-10-01T01:00:00Z"), name("2026-09-01T01:00:00Z"), name("2026-08-01T01:00:00Z")];
    expect(backupsToKeep(names, { daily: 3, weekly: 0 }).keep).toEqual(names.slice(0, 3));
    expect(backupsToKeep(names, { daily: 1, weekly: 2 }).remove).toEqual(names.slice(2));
  });

  it("never lists a file that is not a backup, and keeps the newest of two in one second", () => {
    const first = name("2026-11-29T08:00:00Z");
    const second = backupFileName(at("2026-11-29T08:00:00Z"), 26, 2);
    const { keep, remove } = backupsToKeep(["README.txt", first, second, "shop-x.tar"], { daily: 1, weekly: 0 });
    expect(keep).toEqual([second]);
    expect(remove).toEqual([first]);
  });
});
