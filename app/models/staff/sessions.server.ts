// A staff member's own sign-ins (docs/decisions/0033): the browser sessions signed in as the
// account (sessions.staff_id), as /admin/account lists them, and 'Sign out everywhere'.
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { SessionData } from "~/lib/session.server";

/** The staff windows (web/staff.server's STAFF_IDLE_MS and STAFF_ABSOLUTE_MS), passed in so this module stays below the web layer. */
export interface StaffWindows {
  idleMs: number;
  absoluteMs: number;
}

export interface StaffSessionRow {
  /** a short handle for the page (never the session id itself, which is the cookie's secret) */
  key: string;
  current: boolean;
  device: string;
  address: string | null;
  signedInAt: string;
  lastSeenAt: string;
}

/** A plain name for a browser from its User-Agent: 'Firefox on Windows'. */
export function deviceName(userAgent: string): string {
  if (!userAgent) return "Unknown device";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /OPR\//.test(userAgent)
      ? "Opera"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Chrome\//.test(userAgent)
          ? "Chrome"
          : /Safari\//.test(userAgent)
            ? "Safari"
            : "A browser";
  const system = /iPhone|iPad/.test(userAgent)
    ? "iOS"
    : /Android/.test(userAgent)
      ? "Android"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : null;
  return system ? `${browser} on ${system}` : browser;
}

function handleOf(id: string): string {
  return id.slice(0, 8);
}

/**
 * The account's sessions still within the staff windows, newest first; `currentId` marks this
 * browser's. Expired ones are not shown (the guard refuses them; housekeeping deletes the rows).
 */
export async function listStaffSessions(
  staffId: number,
  currentId: string | undefined,
  windows: StaffWindows,
  db: Db = defaultDb,
  now = Date.now(),
): Promise<StaffSessionRow[]> {
  const rows = await db.selectFrom("sessions").select(["id", "data", "lastSeenAt"]).where("staffId", "=", staffId).execute();
  const list: StaffSessionRow[] = [];
  for (const row of rows) {
    const data = JSON.parse(row.data) as SessionData;
    if (data.staffId !== staffId || !data.staffSignedInAt) continue;
    const signedIn = Date.parse(data.staffSignedInAt);
    const seen = Math.max(Date.parse(row.lastSeenAt), signedIn);
    if (signedIn + windows.absoluteMs < now || seen + windows.idleMs < now) continue;
    list.push({
      key: handleOf(row.id),
      current: row.id === currentId,
      device: deviceName(data.staffDevice?.userAgent ?? ""),
      address: data.staffDevice?.ip ?? null,
      signedInAt: data.staffSignedInAt,
      lastSeenAt: new Date(seen).toISOString(),
    });
  }
  return list.sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt));
}

/** 'Sign out everywhere': every session signed in as the account ends, this browser's too. How many. */
export async function signOutEverywhere(staffId: number, db: Db = defaultDb): Promise<number> {
  const result = await db.deleteFrom("sessions").where("staffId", "=", staffId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
