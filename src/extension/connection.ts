/**
 * Profiles, credentials and the API client of the active profile.
 *
 * - The built-in "Sandbox (local)" profile (the default) starts the embedded sandbox exchange
 *   in-process on 127.0.0.1 with a random port on first need; its state lives in
 *   `context.globalStorageUri/sandbox` and its credentials are provisioned by the sandbox itself.
 * - User profiles `{name, baseUrl}` come from the application-scoped setting `spotdesk.profiles`;
 *   `spotdesk.activeProfile` (application scope too) picks one. Application scope means a
 *   workspace's .vscode/settings.json can never redirect signed requests.
 * - API credentials of user profiles live only in SecretStorage under `spotdesk.credentials/<profile id>`.
 *
 * Heavy modules (the API client with its zod schemas, the sandbox server) are loaded lazily with
 * dynamic `import()`, which esbuild turns into lazily-initialised modules: activation stays light.
 */
import * as vscode from 'vscode';
import type { SpotClient } from '../api/client';
import type { KeyVersion } from '../api/schemas';

/** Id and display name of the built-in sandbox profile. */
export const SANDBOX_PROFILE_ID = 'sandbox';
export const SANDBOX_PROFILE_NAME = 'Sandbox (local)';

/** One profile as SpotDesk sees it. `id` is `sandbox` or `user:<name>`. */
export interface Profile {
  id: string;
  name: string;
  baseUrl?: string;
  sandbox: boolean;
}

/** API key credentials as stored in SecretStorage (never in settings or logs). */
export interface StoredCredentials {
  apiKey: string;
  apiSecret: string;
  apiPassphrase: string;
  /** KC-API-KEY-VERSION, "2" or "3" (as on the wire). */
  keyVersion: KeyVersion;
}

/** One request as reported by the client's `onRequest` hook (no headers, no secrets). */
export interface RequestLogEntry {
  method: string;
  path: string;
  code?: string;
  httpStatus?: number;
  latencyMs?: number;
  weight?: number;
  pool?: string;
}

/** Error whose message is meant for the user (what happened and what to do next). */
export class UserFacingError extends Error {
  constructor(
    message: string,
    /** Command the user can run to fix it, e.g. `spotdesk.setCredentials`. */
    readonly fixCommand?: string,
  ) {
    super(message);
    this.name = 'UserFacingError';
  }
}

interface RunningSandbox {
  baseUrl: string;
  adminToken: string;
  credentials: { apiKey: string; apiSecret: string; apiPassphrase: string; keyVersion: string | number };
  close(): Promise<void> | void;
}

const SECRET_PREFIX = 'spotdesk.credentials/';

/** Read the user profiles from the (application-scoped) setting, dropping malformed entries. */
export function userProfiles(): Profile[] {
  const raw = vscode.workspace.getConfiguration('spotdesk').get<unknown>('profiles');
  if (!Array.isArray(raw)) return [];
  const out: Profile[] = [];
  for (const p of raw) {
    if (!p || typeof p !== 'object') continue;
    const { name, baseUrl } = p as { name?: unknown; baseUrl?: unknown };
    if (typeof name !== 'string' || !name.trim() || typeof baseUrl !== 'string') continue;
    if (name === SANDBOX_PROFILE_NAME || out.some((o) => o.name === name)) continue;
    out.push({ id: `user:${name}`, name, baseUrl: baseUrl.replace(/\/+$/, ''), sandbox: false });
  }
  return out;
}

/** The built-in sandbox profile. */
export function sandboxProfile(): Profile {
  return { id: SANDBOX_PROFILE_ID, name: SANDBOX_PROFILE_NAME, sandbox: true };
}

/**
 * Owns the active profile, its credentials and its client. One instance per activation.
 * Fires `onDidChange` when the active profile or its credentials change.
 */
export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the active profile or its credentials change. */
  readonly onDidChange = this.changed.event;
  private clientPromise: Promise<SpotClient> | undefined;
  private clientFor: string | undefined;
  private publicPromise: Promise<SpotClient> | undefined;
  private publicFor: string | undefined;
  private lastPublic: SpotClient | undefined;
  private sandboxPromise: Promise<RunningSandbox> | undefined;
  private lastClient: SpotClient | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private hasCredentials = false;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('spotdesk.profiles') || e.affectsConfiguration('spotdesk.activeProfile')) {
          this.reset();
        }
      }),
      context.secrets.onDidChange((e) => {
        if (e.key.startsWith(SECRET_PREFIX)) this.reset();
      }),
    );
    void this.updateContextKeys();
  }

  /** The active profile; falls back to the sandbox when the setting names an unknown profile. */
  profile(): Profile {
    const name = vscode.workspace.getConfiguration('spotdesk').get<string>('activeProfile');
    if (name && name !== SANDBOX_PROFILE_NAME) {
      const p = userProfiles().find((u) => u.name === name);
      if (p) return p;
    }
    return sandboxProfile();
  }

  /** All profiles: the sandbox first, then the user profiles in setting order. */
  profiles(): Profile[] {
    return [sandboxProfile(), ...userProfiles()];
  }

  /** Make `name` the active profile (written to the user's global settings). */
  async selectProfile(name: string): Promise<void> {
    await vscode.workspace.getConfiguration('spotdesk').update('activeProfile', name, vscode.ConfigurationTarget.Global);
    this.reset();
  }

  /** Whether the active profile can make signed requests (always true for the sandbox). */
  async credentialsPresent(profile = this.profile()): Promise<boolean> {
    if (profile.sandbox) return true;
    return (await this.readCredentials(profile)) !== undefined;
  }

  /** Store credentials for a user profile in SecretStorage. */
  async storeCredentials(profile: Profile, creds: StoredCredentials): Promise<void> {
    await this.context.secrets.store(SECRET_PREFIX + profile.id, JSON.stringify(creds));
    this.reset();
  }

  /** Remove a profile's credentials from SecretStorage. */
  async clearCredentials(profile: Profile): Promise<void> {
    await this.context.secrets.delete(SECRET_PREFIX + profile.id);
    this.reset();
  }

  /** Credentials of a user profile from SecretStorage, or undefined. */
  async readCredentials(profile: Profile): Promise<StoredCredentials | undefined> {
    const raw = await this.context.secrets.get(SECRET_PREFIX + profile.id);
    if (!raw) return undefined;
    try {
      const c = JSON.parse(raw) as Partial<StoredCredentials>;
      if (c.apiKey && c.apiSecret && c.apiPassphrase && c.keyVersion) return c as StoredCredentials;
    } catch {
      /* corrupt entry: treat as missing */
    }
    return undefined;
  }

  /**
   * Client for the active profile (cached until the profile or credentials change). For the
   * sandbox profile this starts the embedded sandbox first.
   * @throws UserFacingError when a user profile has no credentials or the sandbox cannot start.
   */
  client(): Promise<SpotClient> {
    const profile = this.profile();
    const key = `${profile.id} ${profile.baseUrl ?? ''}`;
    if (!this.clientPromise || this.clientFor !== key) {
      this.clientFor = key;
      const p = this.createClient(profile);
      this.clientPromise = p;
      p.then(
        (c) => (this.lastClient = c),
        () => {
          if (this.clientPromise === p) this.clientPromise = undefined;
        },
      );
    }
    return this.clientPromise;
  }

  /**
   * Client for the active profile's PUBLIC endpoints (GET /api/v1/markets, /api/v2/symbols,
   * /api/v1/market/allTickers, /api/v1/status, …). When the profile can sign (the sandbox, or a
   * user profile with credentials) this is {@link client} itself, so both share one rate-limit
   * budget; a user profile without credentials gets a credential-less `SpotClient` on its base
   * URL (cached until the profile or credentials change). Calling a private endpoint on that
   * client throws.
   * @throws UserFacingError when the sandbox cannot start.
   */
  async publicClient(): Promise<SpotClient> {
    const profile = this.profile();
    if (profile.sandbox || (await this.credentialsPresent(profile))) return this.client();
    const key = `${profile.id} ${profile.baseUrl ?? ''}`;
    if (!this.publicPromise || this.publicFor !== key) {
      this.publicFor = key;
      const p = (async () => {
        const { SpotClient: Client } = await import('../api/client');
        return new Client({ baseUrl: profile.baseUrl ?? '', onRequest: (e: RequestLogEntry) => this.logRequest(e) });
      })();
      this.publicPromise = p;
      p.then(
        (c) => (this.lastPublic = c),
        () => {
          if (this.publicPromise === p) this.publicPromise = undefined;
        },
      );
    }
    return this.publicPromise;
  }

  /** The most recently created client, if any (for the status bar's budget tooltip; no I/O). */
  currentClient(): SpotClient | undefined {
    return this.lastClient ?? this.lastPublic;
  }

  /** The embedded sandbox's address and admin token, starting it if the sandbox profile is active. */
  async sandbox(): Promise<{ baseUrl: string; adminToken: string } | undefined> {
    if (!this.profile().sandbox) return undefined;
    const s = await this.startSandbox();
    return { baseUrl: s.baseUrl, adminToken: s.adminToken };
  }

  /** Whether the embedded sandbox has been started in this session. */
  sandboxStarted(): boolean {
    return this.sandboxPromise !== undefined;
  }

  private async createClient(profile: Profile): Promise<SpotClient> {
    const { SpotClient: Client } = await import('../api/client');
    const onRequest = (e: RequestLogEntry) => this.logRequest(e);
    if (profile.sandbox) {
      const s = await this.startSandbox();
      const c = s.credentials;
      return new Client({
        baseUrl: s.baseUrl,
        credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: String(c.keyVersion) as KeyVersion },
        onRequest,
      });
    }
    const creds = await this.readCredentials(profile);
    if (!creds) {
      throw new UserFacingError(
        `Profile "${profile.name}" has no API credentials. Run "SpotDesk: Set API Credentials" to add them.`,
        'spotdesk.setCredentials',
      );
    }
    return new Client({ baseUrl: profile.baseUrl ?? '', credentials: creds, onRequest });
  }

  /** Log one request: only what the client's hook reports (never headers or KC-API-* values). */
  logRequest(e: RequestLogEntry): void {
    const parts = [`${e.method} ${e.path}`, `→ ${e.code ?? '?'}`];
    if (e.httpStatus !== undefined) parts.push(`HTTP ${e.httpStatus}`);
    if (e.latencyMs !== undefined) parts.push(`${Math.round(e.latencyMs)} ms`);
    if (e.weight !== undefined) parts.push(`weight ${e.weight}${e.pool ? ` (${e.pool})` : ''}`);
    const line = redact(parts.join('  '));
    if (e.code && e.code !== '200000') this.log.warn(line);
    else this.log.info(line);
  }

  private startSandbox(): Promise<RunningSandbox> {
    if (!this.sandboxPromise) {
      const p: Promise<RunningSandbox> = Promise.resolve(vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'SpotDesk: starting the local sandbox exchange…' },
        async () => {
          const t0 = Date.now();
          const { startSandbox } = await import('../exchange/server/index');
          const stateDir = vscode.Uri.joinPath(this.context.globalStorageUri, 'sandbox').fsPath;
          await vscode.workspace.fs.createDirectory(vscode.Uri.file(stateDir));
          const log = (msg: string) => this.log.debug(`[sandbox] ${redact(msg)}`);
          let s: RunningSandbox;
          try {
            s = await startSandbox({ host: '127.0.0.1', port: 0, stateDir, sim: true, log });
          } catch (err) {
            // Typically another VS Code window holds the state directory's journal lock.
            const why = err instanceof Error ? err.message : String(err);
            this.log.warn(`sandbox state in ${stateDir} unavailable (${why}); starting an in-memory sandbox instead`);
            void vscode.window.showWarningMessage(
              `SpotDesk: the sandbox's saved state is unavailable (${why}). This window runs a fresh in-memory sandbox; its orders and balances are not kept.`,
            );
            s = await startSandbox({ host: '127.0.0.1', port: 0, sim: true, log });
          }
          this.log.info(`sandbox listening on ${s.baseUrl} (state in ${stateDir}, started in ${Date.now() - t0} ms)`);
          this.disposables.push({ dispose: () => void s.close() });
          return s;
        },
      ));
      this.sandboxPromise = p;
      p.catch((err: unknown) => {
        this.sandboxPromise = undefined;
        this.log.error(`sandbox failed to start: ${err instanceof Error ? err.message : String(err)}`);
      });
      return p.then(
        (s) => s,
        (err: unknown) => {
          throw new UserFacingError(
            `The local sandbox exchange could not start: ${err instanceof Error ? err.message : String(err)}. ` +
              'See the "SpotDesk" output channel, then run "SpotDesk: Refresh" to try again.',
          );
        },
      );
    }
    return this.sandboxPromise;
  }

  private reset(): void {
    for (const old of [this.lastClient, this.lastPublic]) {
      if (!old) continue;
      // Release its keep-alive sockets once requests still in flight have had time to finish.
      const t = setTimeout(() => old.close(), 30_000);
      t.unref?.();
    }
    this.clientPromise = undefined;
    this.clientFor = undefined;
    this.lastClient = undefined;
    this.publicPromise = undefined;
    this.publicFor = undefined;
    this.lastPublic = undefined;
    void this.updateContextKeys();
    this.changed.fire();
  }

  private async updateContextKeys(): Promise<void> {
    const profile = this.profile();
    this.hasCredentials = await this.credentialsPresent(profile);
    await vscode.commands.executeCommand('setContext', 'spotdesk.needsCredentials', !this.hasCredentials);
    await vscode.commands.executeCommand('setContext', 'spotdesk.sandboxProfile', profile.sandbox);
  }

  /** Stop the embedded sandbox (if started) and release listeners. */
  dispose(): void {
    this.lastClient?.close();
    this.lastPublic?.close();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/**
 * Defence in depth for log lines: blank out anything that looks like a KC-API-* header value
 * (`KC-API-SIGN: …`, `"KC-API-KEY":"…"`). The client's hook never reports headers, so this
 * should never trigger.
 */
export function redact(line: string): string {
  return line.replace(/(KC-API-[A-Z-]+"?\s*[:=]\s*"?)[^\s",}]+/gi, '$1***');
}
