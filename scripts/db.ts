// npm run db:migrate | npm run db:seed
import { seedDemo } from "../db/seed.server";
import { db } from "../app/lib/db.server";
import { migrateToLatest } from "../app/lib/migrate.server";

const command = process.argv[2];
try {
  const results = await migrateToLatest(db);
  for (const r of results) console.info(`migration ${r.migrationName}: ${r.status}`);
  if (command === "seed") {
    const counts = await seedDemo(db);
    console.info(`seeded ${counts.categories} categories and ${counts.products} products`);
  } else if (command !== "migrate") {
    console.error("usage: tsx scripts/db.ts migrate|seed");
    process.exitCode = 2;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
