// The staff's delivery zones (/admin/delivery, ADR 0017): the list, one zone, the districts the
// form offers, and each change with its audit row, in one transaction. Which zone decides for a
// pincode is quote.server.ts.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isUniqueViolation, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { DeliveryZone } from "~/utils/delivery";
import { zoneScope } from "~/utils/delivery";
import type { ZoneInput } from "~/utils/delivery-schemas";
import { diffDetails, recordAudit, rowDetails } from "../audit.server";
import type { Actor } from "../staff/staff.server";
import type { ZoneRow } from "./quote.server";
import { SPECIFICITY } from "./quote.server";

function toZone(row: ZoneRow): DeliveryZone {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    district: row.district,
    pincodeFrom: row.pincodeFrom,
    pincodeTo: row.pincodeTo,
    days: { min: row.minDays, max: row.maxDays },
    cod: row.cod === 1,
    served: row.served === 1,
    label: row.label,
  };
}

/** Every zone, the default first, then states, districts and ranges, each in order. */
export async function listZones(db: Db = defaultDb): Promise<DeliveryZone[]> {
  const rows = await db.selectFrom("deliveryZones").selectAll().execute();
  return rows
    .sort(
      (a, b) =>
        SPECIFICITY[a.kind] - SPECIFICITY[b.kind] ||
        (a.state ?? "").localeCompare(b.state ?? "") ||
        (a.district ?? "").localeCompare(b.district ?? "") ||
        (a.pincodeFrom ?? 0) - (b.pincodeFrom ?? 0) ||
        a.id - b.id,
    )
    .map(toZone);
}

export async function getZone(id: number, db: Db = defaultDb): Promise<DeliveryZone | null> {
  const row = await db.selectFrom("deliveryZones").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toZone(row) : null;
}

/** The districts of each state in the directory (the zone form's choices). */
export async function districtsByState(db: Db = defaultDb): Promise<Record<string, string[]>> {
  const rows = await db.selectFrom("pincodes").select(["state", "district"]).distinct().orderBy("state").orderBy("district").execute();
  const out: Record<string, string[]> = {};
  for (const r of rows) (out[r.state] ??= []).push(r.district);
  return out;
}

function scopeKey(input: ZoneInput): string {
  if (input.kind === "state") return `state:${input.state}`;
  if (input.kind === "district") return `district:${input.state}|${input.district}`;
  if (input.kind === "range") return `range:${input.pincodeFrom}-${input.pincodeTo}`;
  return "default";
}

/** A district's spelling in the directory (case and spaces aside), or a 400 beside the field. */
async function checkedDistrict(input: ZoneInput, db: Db): Promise<ZoneInput> {
  if (input.kind !== "district") return input;
  const known = (await districtsByState(db))[input.state!] ?? [];
  const match = known.find((d) => d.toLowerCase() === input.district!.toLowerCase());
  if (!match) {
    const message = `No district of ${input.state} is called ${input.district} in the pincode directory`;
    throw new AppError(400, message, { fieldErrors: { district: message } });
  }
  return { ...input, district: match };
}

const TAKEN = "A zone for this place exists already: edit that one.";

function zoneValues(input: ZoneInput) {
  return {
    kind: input.kind,
    scopeKey: scopeKey(input),
    state: input.state,
    district: input.district,
    pincodeFrom: input.pincodeFrom,
    pincodeTo: input.pincodeTo,
    minDays: input.days.min,
    maxDays: input.days.max,
    cod: input.cod ? 1 : 0,
    served: input.served ? 1 : 0,
    label: input.label,
  };
}

/** The columns a zone's audit rows record before and after. */
const ZONE_AUDITED = [
  "kind",
  "state",
  "district",
  "pincodeFrom",
  "pincodeTo",
  "minDays",
  "maxDays",
  "cod",
  "served",
  "label",
] as const satisfies readonly (keyof ReturnType<typeof zoneValues>)[];

function summary(input: ZoneInput): string {
  if (!input.served) return `${zoneScope(input)}: not served`;
  return `${zoneScope(input)}: ${input.days.min}-${input.days.max} business days, ${input.cod ? "cash on delivery" : "prepaid only"}`;
}

async function taken<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, TAKEN);
    throw error;
  }
}

/** A new zone (not a default: there is one). */
export async function createZone(raw: ZoneInput, actor: Actor, db: Db = defaultDb): Promise<number> {
  if (raw.kind === "default")
    throw new AppError(400, "Choose what the zone covers", { fieldErrors: { kind: "Choose what the zone covers" } });
  const input = await checkedDistrict(raw, db);
  return taken(() =>
    db.transaction().execute(async (trx) => {
      const now = nowIso();
      const row = await trx
        .insertInto("deliveryZones")
        .values({ ...zoneValues(input), createdAt: now, updatedAt: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        action: "create",
        entity: "delivery_zone",
        entityId: row.id,
        summary: `Delivery zone ${summary(input)}`,
        actor,
        details: rowDetails(zoneValues(input), ZONE_AUDITED),
      });
      return row.id;
    }),
  );
}

/** Change a zone; the default zone keeps its scope (only its days, cash on delivery, served and label change). */
export async function updateZone(id: number, raw: ZoneInput, actor: Actor, db: Db = defaultDb): Promise<void> {
  const current = await getZone(id, db);
  if (!current) throw new AppError(404, "That delivery zone was not found");
  if ((current.kind === "default") !== (raw.kind === "default")) {
    throw new AppError(400, "The default zone covers everywhere else: only its days and options change", {
      fieldErrors: { kind: "Not for this zone" },
    });
  }
  const input = await checkedDistrict(raw, db);
  await taken(() =>
    db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom("deliveryZones").selectAll().where("id", "=", id).executeTakeFirst();
      if (!before) throw new AppError(404, "That delivery zone was not found");
      const result = await trx
        .updateTable("deliveryZones")
        .set({ ...zoneValues(input), updatedAt: nowIso() })
        .where("id", "=", id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new AppError(404, "That delivery zone was not found");
      await recordAudit(trx, {
        action: "update",
        entity: "delivery_zone",
        entityId: id,
        summary: `Delivery zone ${summary(input)}`,
        actor,
        details: diffDetails(before, { ...before, ...zoneValues(input) }, ZONE_AUDITED),
      });
    }),
  );
}

/** Delete a zone: its places fall back to the next less specific zone. The default zone stays. */
export async function deleteZone(id: number, actor: Actor, db: Db = defaultDb): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("deliveryZones").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new AppError(404, "That delivery zone was not found");
    if (row.kind === "default") throw new AppError(409, "The default zone cannot be deleted: it covers every pincode no other zone does.");
    await trx.deleteFrom("deliveryZones").where("id", "=", id).execute();
    await recordAudit(trx, {
      action: "delete",
      entity: "delivery_zone",
      entityId: id,
      summary: `Delivery zone ${zoneScope(toZone(row))} deleted`,
      actor,
      details: rowDetails(row, ZONE_AUDITED, true),
    });
  });
}
