// Process singletons: the database, the boot, the secrets, the shutdown hooks, the mail worker, the
// data generation. Each is made once per process and kept on globalThis under its name, so that a
// module evaluated again (the development server reloads app modules on every change; a test
// resets its module graph) finds the one already made instead of opening a second database.
// This is the only place that touches globalThis for that.

declare global {
  // `var` is how a global is declared in TypeScript.
  var __shopSingletons: Map<string, unknown> | undefined;
}

function store(): Map<string, unknown> {
  return (globalThis.__shopSingletons ??= new Map());
}

/** The process's one value named `name`, made by `make()` on the first call. */
export function remember<T>(name: string, make: () => T): T {
  const singletons = store();
  if (!singletons.has(name)) singletons.set(name, make());
  return singletons.get(name) as T;
}

/** Drops what `remember(name, …)` made, so that the next call makes it again (tests that start the app twice). */
export function forget(name: string): void {
  store().delete(name);
}
