// Secrets that must survive restarts but need no configuration: generated once and kept
// in the data folder (mode 0600). An environment variable, when set, always wins.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "./env.server";

export function persistentSecret(name: string, bytes = 32): string {
  const file = path.resolve(env.DATA_DIR, `${name}.secret`);
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not created yet
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = crypto.randomBytes(bytes).toString("hex");
  try {
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  } catch {
    // Another process created it first: use theirs. A file that exists but is too short (emptied,
    // written by hand) would make signatures guessable: stop and say how to mend it.
    const theirs = fs.readFileSync(file, "utf8").trim();
    if (theirs.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters: delete the file to generate a new one`);
    return theirs;
  }
}

export function sessionSecrets(): string[] {
  if (env.SESSION_SECRET)
    return env.SESSION_SECRET.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  return [persistentSecret("session")];
}
