// npm run db:migrate | npm run db:seed | npm run db:seed -- --large [--total N]
import { LARGE_SEED_TOTAL } from "../db/large-seed";
import { seedDemo, seedLarge } from "../db/seed.server";
import { seedDemoPhotos } from "../db/seed-photos.server";
import { db } from "../app/lib/db.server";
import { migrateToLatest } from "../app/lib/migrate.server";

const USAGE = "usage: tsx scripts/db.ts migrate | seed [--large [--total N]]   (N: 30 to 1000000, default 100000)";

/** `--total N` or `--total=N`: how many products the large seed leaves in all; undefined when it is malformed. */
function totalOption(args: string[]): number | undefined {
  const at = args.findIndex((a) => a === "--total" || a.startsWith("--total="));
  if (at < 0) return LARGE_SEED_TOTAL;
  const text = args[at]!.includes("=") ? args[at]!.split("=")[1] : args[at + 1];
  const value = Number(text);
  return /^\d+$/.test(text ?? "") && value >= 30 && value <= 1_000_000 ? value : undefined;
}

const [command, ...options] = process.argv.slice(2);
try {
  const large = options.includes("--large");
  const total = totalOption(options);
  if ((command !== "migrate" && command !== "seed") || total === undefined || (!large && options.length > 0)) {
    console.error(USAGE);
    process.exitCode = 2;
  } else {
    const results = await migrateToLatest(db);
    for (const r of results) console.info(`migration ${r.migrationName}: ${r.status}`);
    if (command === "seed") {
      const started = performance.now();
      const counts = large ? await seedLarge(db, total) : await seedDemo(db);
      const photos = await seedDemoPhotos(db);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.info(`seeded ${counts.categories} categories, ${counts.products} products and ${photos} photos in ${seconds} s`);
    }
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
