// One cluster for a test file: started before its tests (a fresh database on TEST_PG_URL's server
// when test:cluster runs under scripts/with-pg.sh, else a throwaway PostgreSQL of its own), stopped
// after them.
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { startCluster } from "../../../scripts/cluster.mjs";

export type Cluster = Awaited<ReturnType<typeof startCluster>>;
type ClusterOptions = NonNullable<Parameters<typeof startCluster>[0]>;

export const ADMIN_PASSWORD = `cluster-admin-${crypto.randomBytes(6).toString("hex")}`;

/** The file's cluster, once beforeAll has run: `cluster()` answers it. */
export function clusterForFile(env: Record<string, string> = {}, options: Partial<ClusterOptions> = {}): () => Cluster {
  let cluster: Cluster | null = null;
  beforeAll(async () => {
    // Each client names its own address (tests/support/cluster/client.ts), as a CDN in front would: nginx appends.
    cluster = await startCluster({
      servers: 2,
      forwardedFor: "append",
      env: { ADMIN_PASSWORD, SEED: "demo", ...env },
      log: () => {},
      ...options,
    });
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  return () => {
    if (!cluster) throw new Error("the cluster has not started");
    return cluster;
  };
}

/** Rows of one query on the cluster's database (what the shop wrote, read as the tests' referee). */
export async function query<T>(cluster: Cluster, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}
