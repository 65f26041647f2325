/** `rankscope user …` and `rankscope token …`: accounts and API tokens, against DATABASE_URL or the embedded database. */
import { randomBytes } from "node:crypto";
import os from "node:os";
import type { AuditActor } from "../../../db/queries/audit";
import type { DatabaseHandle } from "../../../db/client";
import { passwordSchema, usernameSchema } from "../../../db/schema/user/validation";
import { roles, type Role } from "../../../lib/auth/roles";
import { choice, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, UsageError, type Command } from "../command";
import type { CliIo } from "../io";

/** CLI changes are recorded in the audit log as done by the system, naming the OS user and host. */
export function cliActor(): AuditActor {
  let user = "unknown";
  try {
    user = os.userInfo().username;
  } catch {
    // no passwd entry (containers): keep "unknown"
  }
  return { type: "system", name: `cli:${user}`, ip: os.hostname(), userAgent: "rankscope-cli" };
}

type AccountStore = typeof import("./accounts-store");

/** Runs `work` on the configured database, migrated first; the database layer is loaded only when a command needs it. */
export async function database<T>(work: (handle: DatabaseHandle & { store: AccountStore }) => Promise<T>): Promise<T> {
  const store = await import("./accounts-store");
  return store.withDatabase(async (handle) => {
    await store.migrate(handle.pool);
    return work({ ...handle, store });
  });
}

/** The password from standard input (first line), or a new random one that is printed. */
async function passwordFrom(io: CliIo, fromStdin: boolean | undefined): Promise<{ password: string; generated: boolean }> {
  if (!fromStdin) return { password: randomBytes(18).toString("base64url"), generated: true };
  const password = (await io.readText("-")).split(/\r?\n/)[0] ?? "";
  const parsed = passwordSchema.safeParse(password);
  if (!parsed.success) throw new UsageError("the password must have 10 to 128 characters");
  return { password, generated: false };
}

function username(value: string | undefined): string {
  const parsed = usernameSchema.safeParse(value ?? "");
  if (!parsed.success) throw new UsageError(`a username of 3 to 30 lower-case letters, digits, dots and underscores is needed, not ${JSON.stringify(value ?? "")}`);
  return parsed.data;
}

const userHelp = `Usage: rankscope user add USERNAME --role viewer|editor|admin [--name NAME] [--password-stdin]
       rankscope user passwd USERNAME [--password-stdin]
       rankscope user disable USERNAME
       rankscope user enable USERNAME
       rankscope user unlock USERNAME
       rankscope user list

Manages console accounts in the configured database (DATABASE_URL, or the embedded one in .data/postgres when
the console is not running). Without --password-stdin a random password is generated and printed once.
A new password or disabling ends every session of the user at once. unlock forgets the user's failed sign-ins
(from every address), so the right password works again at once. Changes go to the audit log.

Options:
  --role ROLE         viewer (read everything), editor (also change data), admin (also users and tokens)
  --name NAME         display name (default: the username)
  --password-stdin    read the password from the first line of standard input
  -h, --help          show this help

Exit status: 0 done, 1 no such user or the change is refused, 2 wrong arguments.

Examples:
  rankscope user add alice --role editor
  printf '%s\\n' "$PASSWORD" | rankscope user passwd alice --password-stdin
  rankscope user disable bob
  rankscope user unlock alice
`;

export const userCommand: Command = {
  name: "user",
  summary: "add users, set passwords, disable, enable or unlock accounts",
  help: userHelp,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      role: { type: "string" },
      name: { type: "string" },
      "password-stdin": { type: "boolean" },
    });
    if (values.help || positionals.length === 0) {
      io.stdout(userHelp);
      return values.help ? EXIT_OK : EXIT_TROUBLE;
    }
    const [action, target, ...extra] = positionals;
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`);
    const actor = cliActor();
    switch (action) {
      case "add": {
        const name = username(target);
        if (values.role === undefined) throw new UsageError("--role is required (viewer, editor or admin)");
        const role = choice<Role>("role", values.role, roles, "viewer");
        const { password, generated } = await passwordFrom(io, values["password-stdin"]);
        return database(async ({ db, store }) => {
          try {
            await store.createUser(db, { username: name, role, password, name: values.name }, actor);
          } catch (error) {
            if (!(error instanceof store.UserConflictError)) throw error;
            io.stderr(`rankscope user: ${error.message}\n`);
            return 1;
          }
          io.stdout(`created user ${name} with the ${role} role\n`);
          if (generated) io.stdout(`password (shown once): ${password}\n`);
          return EXIT_OK;
        });
      }
      case "passwd":
      case "disable":
      case "enable": {
        const name = username(target);
        const secret = action === "passwd" ? await passwordFrom(io, values["password-stdin"]) : undefined;
        return database(async ({ db, store }) => {
          const user = await store.findUserByUsername(db, name);
          if (!user) {
            io.stderr(`rankscope user: no user named ${name}\n`);
            return 1;
          }
          const change = secret ? { password: secret.password } : { disabled: action === "disable" };
          try {
            await store.updateUser(db, user.id, change, actor);
          } catch (error) {
            if (!(error instanceof store.UserConflictError)) throw error;
            io.stderr(`rankscope user: ${error.message}\n`);
            return 1;
          }
          if (secret) {
            io.stdout(`set a new password for ${name}; their sessions have ended\n`);
            if (secret.generated) io.stdout(`password (shown once): ${secret.password}\n`);
          } else io.stdout(`${action}d ${name}${action === "disable" ? "; their sessions have ended" : ""}\n`);
          return EXIT_OK;
        });
      }
      case "unlock": {
        const name = username(target);
        return database(async ({ db, store }) => {
          const user = await store.findUserByUsername(db, name);
          if (!user) {
            io.stderr(`rankscope user: no user named ${name}\n`);
            return 1;
          }
          const { cleared } = await store.unlockSignIn(db, user, actor);
          io.stdout(`unlocked ${name}: forgot ${cleared} failed sign-in${cleared === 1 ? "" : "s"}\n`);
          return EXIT_OK;
        });
      }
      case "list":
        if (target !== undefined) throw new UsageError("user list takes no arguments");
        return database(async ({ db, store }) => {
          for (const user of await store.listUsers(db)) {
            io.stdout(`${user.username}\t${user.role}\t${user.disabled ? "disabled" : "enabled"}\t${user.lastSignInAt ?? "-"}\n`);
          }
          return EXIT_OK;
        });
      default:
        throw new UsageError(`unknown action ${JSON.stringify(action)}: use add, passwd, disable, enable, unlock or list`);
    }
  },
};

/** `30d`, `12h`, `90m` from now, or an ISO date-time. */
export function parseExpiry(value: string, now = new Date()): Date {
  const relative = /^(\d+)([dhm])$/.exec(value);
  if (relative) {
    const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[relative[2] as "d" | "h" | "m"];
    return new Date(now.getTime() + Number(relative[1]) * unit);
  }
  const at = new Date(value);
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) throw new UsageError(`--expires takes 30d, 12h, 90m or an ISO date, not ${JSON.stringify(value)}`);
  if (at.getTime() <= now.getTime()) throw new UsageError("--expires must be in the future");
  return at;
}

const tokenHelp = `Usage: rankscope token create --role viewer|editor|admin --name NAME [--expires 30d|12h|ISO-DATE]
       rankscope token list
       rankscope token revoke ID

Manages API tokens in the configured database (DATABASE_URL, or the embedded one). "create" prints the token
alone on the last line of standard output: it is shown only this once (only its hash is stored). Programs send it
as "Authorization: Bearer <token>". Changes go to the audit log.

Options:
  --role ROLE      what the token may do: viewer (read), editor (also write data), admin (also users and tokens)
  --name NAME      what the token is for, e.g. fault-collector-rack-12
  --expires WHEN   30d, 12h, 90m from now, or an ISO date-time (default: never)
  -h, --help       show this help

Exit status: 0 done, 1 no such token, 2 wrong arguments.

Examples:
  rankscope token create --role editor --name ci-pipeline --expires 90d
  TOKEN=$(rankscope token create --role viewer --name grafana | tail -n 1)
`;

export const tokenCommand: Command = {
  name: "token",
  summary: "create, list and revoke API tokens",
  help: tokenHelp,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { role: { type: "string" }, name: { type: "string" }, expires: { type: "string" } });
    if (values.help || positionals.length === 0) {
      io.stdout(tokenHelp);
      return values.help ? EXIT_OK : EXIT_TROUBLE;
    }
    const [action, target, ...extra] = positionals;
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`);
    const actor = cliActor();
    switch (action) {
      case "create": {
        if (target !== undefined) throw new UsageError("token create takes no positional arguments");
        if (values.role === undefined) throw new UsageError("--role is required (viewer, editor or admin)");
        const role = choice<Role>("role", values.role, roles, "viewer");
        const name = values.name?.trim();
        if (!name || name.length > 100) throw new UsageError("--name is required (at most 100 characters)");
        const expiresAt = values.expires === undefined ? null : parseExpiry(values.expires);
        return database(async ({ db, store }) => {
          const created = await store.createApiToken(db, { name, role, expiresAt }, actor);
          io.stdout(`created token ${created.id} "${name}" with the ${role} role, ${expiresAt ? `expires ${expiresAt.toISOString()}` : "no expiry"}\n`);
          io.stdout(`the token is shown only this once:\n${created.token}\n`);
          return EXIT_OK;
        });
      }
      case "list":
        return database(async ({ db, store }) => {
          for (const token of await store.listApiTokens(db)) {
            const state = token.revokedAt ? "revoked" : token.expiresAt && Date.parse(token.expiresAt) <= Date.now() ? "expired" : "active";
            io.stdout(`${token.id}\t${token.name}\t${token.role}\t${state}\t${token.hint}\tlast used ${token.lastUsedAt ?? "never"}\n`);
          }
          return EXIT_OK;
        });
      case "revoke": {
        if (!target || !/^\d+$/.test(target)) throw new UsageError("token revoke needs the token's id (see rankscope token list)");
        return database(async ({ db, store }) => {
          const token = await store.revokeApiToken(db, Number(target), actor);
          if (!token) {
            io.stderr(`rankscope token: no token with id ${target}\n`);
            return 1;
          }
          io.stdout(`revoked token ${token.id} "${token.name}"\n`);
          return EXIT_OK;
        });
      }
      default:
        throw new UsageError(`unknown action ${JSON.stringify(action)}: use create, list or revoke`);
    }
  },
};
