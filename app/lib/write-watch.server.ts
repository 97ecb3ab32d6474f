// The data generation: a number that changes whenever a page may show something else. The
// anonymous page cache (server/page-cache.ts, ADR 0016) keeps a rendered page only while the
// generation it was rendered under is still current, so any admin edit, CSV import, stock change,
// order, review or setting written through `db` drops every cached page at once, on every server.
//
// It moves (1) when a write query starts, (2) when it ends, and (3) when a transaction commits or
// rolls back: a page rendered while a write was under way, or read before a transaction's commit,
// is never served again once the write is visible. Writes to the tables below are not counted: no
// page shown to a visitor without a cookie reads them (sessions, sign-in codes and tokens, rate
// limits, the audit log, carts and wishlists, which are the visitor's own, the mail outbox, leases
// and secrets). Any other table,
// including one added later, counts. A raw `sql` write counts whatever it names.
//
// Several servers on one PostgreSQL (ADR 0020): a transaction that made a counted write sends
// `NOTIFY shop_writes` inside itself, just before its COMMIT (PostgreSQL delivers it only if the
// commit happens, and never loses it once committed, even if this process dies next); a counted
// write outside a transaction sends it right after. Every server listens on one connection of its
// own, outside the pool (listenForWrites), and moves its generation on each notification. While
// that connection is not listening (before it first has, after it drops, until it is back) the
// generation is null and nothing is cached: a write committed meanwhile would go unheard. On
// SQLite (one server) nothing is sent or listened for.
import { AliasNode, CompiledQuery, TableNode } from "kysely";
import { remember } from "./remember.server";
import { noteRequestWroteShown } from "./request-context.server";
import crypto from "node:crypto";
import pg from "pg";
import type {
  DatabaseConnection,
  Dialect,
  Driver,
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  TransactionSettings,
  UnknownRow,
} from "kysely";

/** One database's data generation as one process sees it. */
export interface WriteState {
  /** this state's own name (hex), sent with its notifications so that its own listener skips them */
  readonly id: string;
  /** moves on every counted write, commit, rollback and notification */
  count: number;
  /** false while this state needs a listening connection (PostgreSQL) that is not listening */
  live: boolean;
  /** `count` while live, else null (nothing may be cached) */
  readonly generation: number | null;
  /** opens the listening connection on its first call, and answers it (set by createDb on PostgreSQL) */
  listen?: () => WriteListener;
}

export function createWriteState(): WriteState {
  return {
    id: crypto.randomBytes(8).toString("hex"),
    count: 0,
    live: true,
    get generation() {
      this.listen?.();
      return this.live ? this.count : null;
    },
  };
}

/** The process's own database's generation (the production server's page cache reads it through the build's entry). */
export const sharedWrites: WriteState = remember("writes", createWriteState);

/** The current generation of the process's database, or null while it cannot be trusted (see above). */
export function dataGeneration(): number | null {
  return sharedWrites.generation;
}

/** Whether other processes' writes reach this one only by notification (PostgreSQL: several servers may share the database). */
export function hearsOthersWrites(state: WriteState = sharedWrites): boolean {
  return state.listen !== undefined;
}

/** Settles once `state`'s listening connection listens (at once where none is needed: SQLite). */
export async function whenListening(state: WriteState = sharedWrites): Promise<void> {
  await state.listen?.().ready;
}

function noteWrite(state: WriteState) {
  state.count++;
}

/** Tables whose writes no cookie-less page can show (camelCase or snake_case, as a query names them). */
const NOT_SHOWN = new Set([
  "sessions",
  "apitokens",
  "onetimecodes",
  "ratelimits",
  "auditlog",
  "carts",
  "cartlines",
  "wishlists",
  "wishlistitems",
  // The mail outbox, the housekeeping lease and the shared secrets: written by workers and boots
  // on every server, shown by no page (counted, each would drop every server's cached pages).
  "mailoutbox",
  "leases",
  "sharedsecrets",
]);

function tableName(node: OperationNode | undefined): string | null {
  if (node && AliasNode.is(node)) return tableName(node.node);
  if (node && TableNode.is(node)) return node.table.identifier.name.replaceAll("_", "").toLowerCase();
  return null;
}

/** Whether writing these tables may change a page: any that is not plainly one of NOT_SHOWN. */
function touchesShown(tables: readonly (OperationNode | undefined)[]): boolean {
  return (
    tables.length === 0 ||
    tables.some((table) => {
      const name = tableName(table);
      return name === null || !NOT_SHOWN.has(name);
    })
  );
}

/** Whether a query may change what a page shows. */
export function isShownWrite(node: RootOperationNode): boolean {
  switch (node.kind) {
    case "SelectQueryNode":
      return false;
    case "InsertQueryNode":
      return touchesShown([node.into]);
    case "UpdateQueryNode":
      return touchesShown([node.table]);
    case "DeleteQueryNode":
      return touchesShown(node.from.froms);
    case "RawNode":
      return /\b(insert|update|delete|replace|merge|truncate|alter|drop|create)\b/i.test(node.sqlFragments.join(" "));
    default:
      // MergeQueryNode and anything newer: counted.
      return true;
  }
}

/** Moves the generation when a write query starts and again when it has run. */
export class WriteWatchPlugin implements KyselyPlugin {
  readonly #writes = new WeakSet<object>();
  readonly #state: WriteState;

  constructor(state: WriteState = sharedWrites) {
    this.#state = state;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (isShownWrite(args.node)) {
      this.#writes.add(args.queryId);
      noteWrite(this.#state);
      noteRequestWroteShown();
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#writes.has(args.queryId)) noteWrite(this.#state);
    return args.result;
  }
}

/** The channel every server's counted writes are announced on (PostgreSQL). */
export const WRITES_CHANNEL = "shop_writes";

/**
 * The dialect with its driver's commits and rollbacks moving the generation too; with `notify`
 * (PostgreSQL), a counted write also sends NOTIFY shop_writes: in its transaction, just before the
 * commit (once per transaction, whatever it wrote), or right after a write made outside one.
 */
export function watchingCommits(
  dialect: Dialect,
  state: WriteState = sharedWrites,
  options: { notify?: boolean; onDestroy?: () => Promise<void> } = {},
): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => {
      const driver = dialect.createDriver();
      // With notify: each pooled connection wrapped once, to see its writes and its transactions.
      const wrappers = new WeakMap<DatabaseConnection, Watched>();
      // The payload names the sender: its own listener skips it (its commits moved its generation already).
      const notify = CompiledQuery.raw(`notify ${WRITES_CHANNEL}, '${state.id}'`);
      const inner = (connection: DatabaseConnection) => (connection instanceof Watched ? connection.inner : connection);
      const watched: Driver = {
        init: () => driver.init(),
        acquireConnection: async () => {
          const connection = await driver.acquireConnection();
          if (!options.notify) return connection;
          let wrapper = wrappers.get(connection);
          if (!wrapper) wrappers.set(connection, (wrapper = new Watched(connection, notify)));
          return wrapper;
        },
        beginTransaction: async (connection: DatabaseConnection, settings: TransactionSettings) => {
          await driver.beginTransaction(inner(connection), settings);
          if (connection instanceof Watched) connection.begin();
        },
        commitTransaction: async (connection: DatabaseConnection) => {
          try {
            // Inside the transaction: delivered with its commit, or never if it rolls back.
            if (connection instanceof Watched && connection.end()) await connection.inner.executeQuery(notify);
            await driver.commitTransaction(inner(connection));
          } finally {
            noteWrite(state);
          }
        },
        rollbackTransaction: async (connection: DatabaseConnection) => {
          if (connection instanceof Watched) connection.end();
          try {
            await driver.rollbackTransaction(inner(connection));
          } finally {
            noteWrite(state);
          }
        },
        releaseConnection: (connection: DatabaseConnection) => driver.releaseConnection(inner(connection)),
        destroy: async () => {
          await options.onDestroy?.();
          await driver.destroy();
        },
      };
      const { savepoint, rollbackToSavepoint, releaseSavepoint } = driver;
      if (savepoint) watched.savepoint = (connection, name, compile) => savepoint.call(driver, inner(connection), name, compile);
      if (rollbackToSavepoint) {
        watched.rollbackToSavepoint = (connection, name, compile) => rollbackToSavepoint.call(driver, inner(connection), name, compile);
      }
      if (releaseSavepoint)
        watched.releaseSavepoint = (connection, name, compile) => releaseSavepoint.call(driver, inner(connection), name, compile);
      return watched;
    },
  };
}

/** A pooled connection whose counted writes are announced (NOTIFY shop_writes). */
class Watched implements DatabaseConnection {
  #inTransaction = false;
  #wrote = false;

  constructor(
    readonly inner: DatabaseConnection,
    readonly notify: CompiledQuery,
  ) {}

  begin() {
    this.#inTransaction = true;
    this.#wrote = false;
  }

  /** Ends the transaction: whether it made a counted write. */
  end(): boolean {
    const wrote = this.#wrote;
    this.#inTransaction = false;
    this.#wrote = false;
    return wrote;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query);
    if (isShownWrite(query.query)) {
      if (this.#inTransaction) this.#wrote = true;
      else await this.inner.executeQuery(this.notify);
    }
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** A listening connection (listenForWrites). */
export interface WriteListener {
  /** settles once it listens (first time) */
  readonly ready: Promise<void>;
  /** whether it listens now */
  readonly listening: boolean;
  /** its server process id while connected (pg_stat_activity.pid), for operators and tests */
  readonly pid: number | null;
  /** closes it for good (the state stays not live) */
  stop(): Promise<void>;
}

/**
 * One connection of this process's own, outside the pool, LISTENing on shop_writes: each
 * notification moves `state`'s generation. `state.live` is true only while it listens: it becomes
 * true once LISTEN has answered (the generation moves then too: a page rendered before could have
 * missed a write), and false (and the generation moves) when the connection ends, fails, or does
 * not answer a check every `checkMs` within `checkMs`; it then connects again after `retryMs`.
 * The connection and its timers never keep the process alive.
 */
export function listenForWrites(url: string, state: WriteState, { retryMs = 1000, checkMs = 5000 } = {}): WriteListener {
  let client: pg.Client | null = null;
  let stopped = false;
  let listening = false;
  let retry: NodeJS.Timeout | null = null;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  state.live = false;

  const down = (from: pg.Client) => {
    if (client !== from) return;
    client = null;
    listening = false;
    state.live = false;
    noteWrite(state);
    from.removeAllListeners("notification");
    from.end().catch(() => {});
    if (!stopped) {
      retry = setTimeout(connect, retryMs);
      retry.unref();
    }
  };

  async function connect() {
    retry = null;
    if (stopped) return;
    const next = new pg.Client({ connectionString: url, keepAlive: true, application_name: "shop-writes-listener" });
    client = next;
    next.on("notification", (message) => message.payload !== state.id && noteWrite(state));
    next.on("error", () => down(next));
    next.on("end", () => down(next));
    try {
      await next.connect();
      (next as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      await next.query(`listen ${WRITES_CHANNEL}`);
      if (client !== next || stopped) return;
      listening = true;
      noteWrite(state);
      state.live = true;
      markReady();
    } catch {
      down(next);
    }
  }

  // A connection that went silent (no error, no end) is taken for dropped.
  const check = setInterval(() => {
    const current = client;
    if (!current || !listening) return;
    const timer = setTimeout(() => down(current), checkMs);
    timer.unref();
    current.query("select 1").then(
      () => clearTimeout(timer),
      () => {
        clearTimeout(timer);
        down(current);
      },
    );
  }, checkMs);
  check.unref();

  void connect();
  return {
    ready,
    get listening() {
      return listening;
    },
    get pid() {
      return (client as unknown as { processID?: number } | null)?.processID ?? null;
    },
    async stop() {
      stopped = true;
      clearInterval(check);
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      listening = false;
      state.live = false;
      noteWrite(state);
      await current?.end().catch(() => {});
    },
  };
}
