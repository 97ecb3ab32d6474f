// node scripts/with-pg.mjs COMMAND...: runs COMMAND with TEST_PG_URL naming the admin connection of
// a throwaway PostgreSQL 15 cluster (loopback only, scripts/throwaway.mjs), stopped and removed
// afterwards, whatever the command's outcome. Needs root (the cluster runs as the postgres user);
// installs postgresql-15 with apt-get when missing. SIGINT and SIGTERM are passed on to the command.
import { spawn } from "node:child_process";
import os from "node:os";
import { startPostgres } from "./throwaway.mjs";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node scripts/with-pg.mjs COMMAND [ARGS...]");
  process.exit(2);
}
let cluster;
try {
  cluster = await startPostgres();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
console.info(`PostgreSQL on 127.0.0.1:${cluster.port}`);
const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, TEST_PG_URL: cluster.adminUrl } });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolve) => {
  child.once("error", (error) => {
    console.error(`${command}: ${error.message}`);
    resolve(127);
  });
  child.once("exit", (status, signal) => resolve(status ?? 128 + (os.constants.signals[signal] ?? 0)));
});
cluster.stop();
process.exit(code);
