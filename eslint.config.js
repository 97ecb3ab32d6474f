import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const LAYER_PATHS = {
  lib: ["~/lib/*", "**/lib/*"],
  web: ["~/web/*", "**/web/*"],
  models: ["~/models/*", "**/models/*"],
  components: ["~/components/*", "**/components/*"],
  hooks: ["~/hooks/*", "**/hooks/*"],
  routes: ["~/routes/*", "**/routes/*"],
  root: ["~/root", "**/root"],
  content: ["~/content/*", "**/content/*"],
  // The production server (server/, ADR 0021) wraps the app; the app never imports it.
  server: ["**/server/*"],
};

/** Files under `files` may not import the named layers (tests beside them may). */
function layer(files, forbidden, { server = false, typesFrom = [] } = {}) {
  const patterns = forbidden.map((name) => ({
    group: LAYER_PATHS[name],
    message: `${files.split("/")[1]} may not import ${name} (docs/decisions/0009-structure-and-layers.md)`,
  }));
  for (const name of typesFrom) {
    patterns.push({
      group: LAYER_PATHS[name],
      allowTypeImports: true,
      message: `${files.split("/")[1]} may import only types from ${name}`,
    });
  }
  if (server)
    patterns.push({
      group: ["**/*.server", "**/*.server.*"],
      allowTypeImports: true,
      message: "code that runs in the browser may not import server modules",
    });
  return [
    {
      files: [files.replace(/\*\*$/, "**/*.{ts,tsx}")],
      ignores: ["**/*.test.ts", "**/*.test.tsx"],
      rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns }] },
    },
  ];
}

export default tseslint.config(
  { ignores: ["build/", "node_modules/", "data/", "test-results/", "playwright-report/", ".cache/", "**/*.tmp.*"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
      // Prettier wraps at 140; this catches what it cannot wrap (long strings, comments).
      "max-len": ["error", { code: 140, ignoreUrls: false }],
    },
  },
  // The layers (docs/decisions/0009-structure-and-layers.md): utils and content import no
  // other layer; lib is infrastructure and imports only lib and utils; models add lib; web
  // (request glue) adds models; hooks (React, browser and server render) see utils only;
  // components see utils, content, hooks and models' types only.
  // Routes and root may import any of them, and nothing imports a route or root.
  ...layer("app/utils/**", ["lib", "web", "models", "components", "hooks", "routes", "root", "content", "server"], { server: true }),
  ...layer("app/content/**", ["lib", "web", "models", "components", "hooks", "routes", "root", "server"], { server: true }),
  ...layer("app/hooks/**", ["lib", "web", "models", "components", "routes", "root", "content", "server"], { server: true }),
  ...layer("app/lib/**", ["web", "models", "components", "hooks", "routes", "root", "content", "server"]),
  ...layer("app/models/**", ["web", "components", "hooks", "routes", "root", "server"]),
  ...layer("app/web/**", ["components", "hooks", "routes", "root", "server"]),
  ...layer("app/components/**", ["lib", "web", "routes", "root", "server"], { server: true, typesFrom: ["models"] }),
  ...layer("app/routes/**", ["routes", "root", "server"]),
  {
    // Models are called with what a request means (ids, a client's address), never the Request.
    files: ["app/models/**/*.ts"],
    ignores: ["app/models/**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "TSTypeReference[typeName.name='Request']",
          message: "Models take what a request means, not the Request: read it in the route (or app/web) and pass ids and values.",
        },
      ],
    },
  },
  {
    // Playwright fixtures call `use()`, which is not React's hook.
    files: ["tests/e2e/**/*.ts", "tests/support/e2e/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
);
