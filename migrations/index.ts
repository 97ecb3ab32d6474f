// Every migration, by name, in order. Static imports so the server bundle carries them.
import type { Migration } from "kysely";
import * as m0001 from "./2026-11-22-0001-initial-schema";
import * as m0002 from "./2026-11-22-0002-wishlists";

export const migrations: Record<string, Migration> = {
  "2026-11-22-0001-initial-schema": m0001,
  "2026-11-22-0002-wishlists": m0002,
};
