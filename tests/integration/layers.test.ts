// The layer rules of docs/decisions/0009-structure-and-layers.md are enforced by ESLint: each
// forbidden import below must fail the lint, each allowed one must pass.
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId?.includes("no-restricted")).map((m) => m.message);
}

describe("layer rules", () => {
  it.each([
    ["app/lib/probe.server.ts", 'import { getCart } from "~/models/cart.server";\nexport const x = getCart;\n'],
    ["app/lib/probe.server.ts", 'import { requireUser } from "~/web/visitor.server";\nexport const x = requireUser;\n'],
    ["app/lib/probe.server.ts", 'import { getCart } from "../models/cart.server";\nexport const x = getCart;\n'],
    ["app/lib/probe.server.ts", 'import { createPageCache } from "../../server/page-cache";\nexport const x = createPageCache;\n'],
    ["app/routes/probe.tsx", 'import { requestGate } from "../../server/request-gate";\nexport const x = requestGate;\n'],
    ["app/models/probe.server.ts", 'import { requireUser } from "~/web/visitor.server";\nexport const x = requireUser;\n'],
    ["app/models/probe.server.ts", "export function f(request: Request) {\n  return request.url;\n}\n"],
    ["app/utils/probe.ts", 'import { db } from "~/lib/db.server";\nexport const x = db;\n'],
    ["app/utils/probe.ts", 'import { z } from "zod";\nimport { getCart } from "~/models/cart.server";\nexport const x = [z, getCart];\n'],
    ["app/components/Probe.tsx", 'import { loader } from "~/root";\nexport const x = loader;\n'],
    ["app/components/Probe.tsx", 'import { getCart } from "~/models/cart.server";\nexport const x = getCart;\n'],
    ["app/components/Probe.tsx", 'import { db } from "~/lib/db.server";\nexport const x = db;\n'],
    ["app/routes/probe.tsx", 'import { loader } from "~/routes/cart";\nexport const x = loader;\n'],
    ["app/utils/probe.ts", 'import { useHydrated } from "~/hooks/useHydrated";\nexport const x = useHydrated;\n'],
    ["app/lib/probe.server.ts", 'import { useIsPending } from "~/hooks/useIsPending";\nexport const x = useIsPending;\n'],
    ["app/hooks/probe.ts", 'import { FormField } from "~/components/FormField";\nexport const x = FormField;\n'],
    ["app/hooks/probe.ts", 'import { db } from "~/lib/db.server";\nexport const x = db;\n'],
    // The rules hold in the models' domain folders too.
    ["app/lib/probe.server.ts", 'import { getOrder } from "~/models/orders/read.server";\nexport const x = getOrder;\n'],
    ["app/components/Probe.tsx", 'import { getOrder } from "~/models/orders/read.server";\nexport const x = getOrder;\n'],
    ["app/models/orders/probe.server.ts", 'import { requireUser } from "~/web/visitor.server";\nexport const x = requireUser;\n'],
    ["app/models/orders/probe.server.ts", "export function f(request: Request) {\n  return request.url;\n}\n"],
  ])("%s refuses %j", async (file, code) => {
    expect(await problems(file, code)).not.toEqual([]);
  });

  it.each([
    ["app/models/probe.server.ts", 'import { db } from "~/lib/db.server";\nexport const x = db;\n'],
    ["app/web/probe.server.ts", 'import { getCart } from "~/models/cart.server";\nexport const x = getCart;\n'],
    ["app/components/Probe.tsx", 'import type { CartLine } from "~/models/cart.server";\nexport type X = CartLine;\n'],
    ["app/routes/probe.tsx", 'import { getCart } from "~/models/cart.server";\nexport const x = getCart;\n'],
    ["app/lib/probe.server.ts", 'import { formatPrice } from "~/utils/money";\nexport const x = formatPrice;\n'],
    ["app/components/Probe.tsx", 'import { useIsPending } from "~/hooks/useIsPending";\nexport const x = useIsPending;\n'],
    ["app/hooks/probe.ts", 'import { CART_ACTION } from "~/utils/cart";\nexport const x = CART_ACTION;\n'],
    ["app/components/Probe.tsx", 'import type { Order } from "~/models/orders/read.server";\nexport type X = Order;\n'],
    ["app/models/orders/probe.server.ts", 'import { getCart } from "~/models/cart.server";\nexport const x = getCart;\n'],
  ])("%s allows %j", async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
