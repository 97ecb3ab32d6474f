// The dashboard's banner while the latest scheduled backup failed (app/lib/backup/status.server.ts):
// when, why, and when the last good backup was made. Nothing while backups succeed.
import { formatDateTime } from "~/utils/dates";

export interface BackupAlertView {
  failedAt: string;
  reason: string;
  lastGoodAt: string | null;
}

export function BackupAlert({ alert }: { alert: BackupAlertView | null }) {
  if (!alert) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900" data-testid="backup-alert">
      <p className="font-semibold">
        The last scheduled backup failed, at <time dateTime={alert.failedAt}>{formatDateTime(alert.failedAt)}</time>
      </p>
      <p className="mt-1 break-words">{alert.reason}</p>
      <p className="mt-1">
        {alert.lastGoodAt ? (
          <>
            The last good backup was made at <time dateTime={alert.lastGoodAt}>{formatDateTime(alert.lastGoodAt)}</time>.
          </>
        ) : (
          "No backup has succeeded yet."
        )}{" "}
        The server log has the details; the next try comes within the hour.
      </p>
    </div>
  );
}
