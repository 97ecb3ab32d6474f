// The data generation: a number that changes whenever this process may have changed what a page
// shows. The anonymous page cache (app/lib/page-cache.mjs, ADR 0016) keeps a rendered page only
// while the generation it was rendered under is still current, so any admin edit, CSV import,
// stock change, order, review or setting written through `db` drops every cached page at once.
//
// It moves (1) when a write query starts, (2) when it ends, and (3) when a transaction commits or
// rolls back: a page rendered while a write was under way, or read before a transaction's commit,
// is never served again once the write is visible. Writes to the tables below are not counted: no
// page shown to a visitor without a cookie reads them (sessions, sign-in codes and tokens, rate
// limits, the audit log, carts and wishlists, which are the visitor's own). Any other table,
// including one added later, counts. A raw `sql` write counts whatever it names.
import { AliasNode, TableNode } from "kysely";
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

const state = ((globalThis as { __shopWrites?: { generation: number } }).__shopWrites ??= { generation: 0 });

/** The current generation (read by app/lib/page-cache.mjs through globalThis.__shopWrites). */
export function dataGeneration(): number {
  return state.generation;
}

function noteWrite() {
  state.generation++;
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

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (isShownWrite(args.node)) {
      this.#writes.add(args.queryId);
      noteWrite();
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#writes.has(args.queryId)) noteWrite();
    return args.result;
  }
}

/** The dialect with its driver's commits and rollbacks moving the generation too. */
export function watchingCommits(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => {
      const driver = dialect.createDriver();
      const watched: Driver = {
        init: () => driver.init(),
        acquireConnection: () => driver.acquireConnection(),
        beginTransaction: (connection: DatabaseConnection, settings: TransactionSettings) => driver.beginTransaction(connection, settings),
        commitTransaction: async (connection: DatabaseConnection) => {
          try {
            await driver.commitTransaction(connection);
          } finally {
            noteWrite();
          }
        },
        rollbackTransaction: async (connection: DatabaseConnection) => {
          try {
            await driver.rollbackTransaction(connection);
          } finally {
            noteWrite();
          }
        },
        releaseConnection: (connection: DatabaseConnection) => driver.releaseConnection(connection),
        destroy: () => driver.destroy(),
      };
      if (driver.savepoint) watched.savepoint = driver.savepoint.bind(driver);
      if (driver.rollbackToSavepoint) watched.rollbackToSavepoint = driver.rollbackToSavepoint.bind(driver);
      if (driver.releaseSavepoint) watched.releaseSavepoint = driver.releaseSavepoint.bind(driver);
      return watched;
    },
  };
}
