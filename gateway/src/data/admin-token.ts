import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv, secretSchema } from '@tollgate/envelope/core';
import type { QuerySchema } from '@tollgate/envelope/core';

/** The admin token the gateway checks: from `ADMIN_TOKEN`, or kept in a file beside the store. */
export interface AdminToken {
  /** `environment` (ADMIN_TOKEN), `file` (generated once and kept), or `none` (no admin API). */
  source: 'environment' | 'file' | 'none';
  /** The file it is kept in, when it is. */
  file?: string;
  /** True when the file was made by this start (there was none). */
  made?: boolean;
  /** The token now; a file changed on disk (rotated by the CLI) is read again first. */
  current(): string | undefined;
  /** A new token, written to the file (mode 0600) and used from now on; throws {@link AdminTokenFixedError} unless the source is a file. */
  rotate(): string;
}

/** Rotating a token that is not kept in a file. */
export class AdminTokenFixedError extends Error {
  constructor(source: AdminToken['source']) {
    super(
      source === 'environment'
        ? 'the admin token comes from ADMIN_TOKEN in the environment: change it there and restart the gateway'
        : 'there is no admin token file: the store is STORE_PATH=:memory:; set ADMIN_TOKEN instead',
    );
    this.name = 'AdminTokenFixedError';
  }
}

/** A new admin token: 24 random bytes, 32 characters, far over the 16 required. */
export const newAdminToken = (): string => randomBytes(24).toString('base64url');

const TOKEN_SCHEMA: QuerySchema = { type: 'object', properties: { ADMIN_TOKEN: secretSchema() } };

/** The token in `file`, refused by the same rule as ADMIN_TOKEN (at least 16 characters, no placeholder). */
function readToken(file: string): string {
  const token = readFileSync(file, 'utf8').trim();
  try {
    parseEnv(TOKEN_SCHEMA, { ADMIN_TOKEN: token });
  } catch (err) {
    throw new Error(`the admin token in ${file} is refused: ${(err as Error).message.replace(/^ADMIN_TOKEN /, '')}; delete the file to have a new one made, or run: tollgate admin-token rotate`, { cause: err });
  }
  // Only its owner may read it; a copy made with looser permissions is tightened.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return token;
}

/** Writes a token so no reader ever sees half of it: a new file (mode 0600) renamed over the old. */
function writeToken(file: string, token: string): void {
  // A folder made here is the gateway's own (0700); the store file beside it is 0600 too.
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${token}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** A fixed token (ADMIN_TOKEN), or none. */
export function fixedAdminToken(token: string | undefined): AdminToken {
  const source = token ? 'environment' : 'none';
  return {
    source,
    current: () => token,
    rotate: () => {
      throw new AdminTokenFixedError(source);
    },
  };
}

/**
 * The token kept in `file`: read when there, else made and written (mode 0600) now. Throws, with
 * one line, when the file holds a refused token or cannot be read or written.
 */
export function fileAdminToken(file: string): AdminToken {
  let token: string;
  let made = false;
  try {
    token = readToken(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    token = newAdminToken();
    writeToken(file, token);
    made = true;
  }
  let mtimeMs = statSync(file).mtimeMs;
  return {
    source: 'file',
    file,
    made,
    current() {
      // A stat per admin request (never on the API path): a token rotated by the CLI works at once.
      try {
        const now = statSync(file).mtimeMs;
        if (now !== mtimeMs) {
          token = readToken(file);
          mtimeMs = now;
        }
      } catch {
        // Removed or unreadable while running: the token read last stays in force.
      }
      return token;
    },
    rotate() {
      token = newAdminToken();
      writeToken(file, token);
      mtimeMs = statSync(file).mtimeMs;
      return token;
    },
  };
}

/** The admin token as configured: `ADMIN_TOKEN`, else the one kept in its file (made when missing), else none. */
export function openAdminToken(config: { adminToken?: string; adminTokenFile?: string }): AdminToken {
  if (config.adminToken || !config.adminTokenFile) return fixedAdminToken(config.adminToken);
  return fileAdminToken(config.adminTokenFile);
}
