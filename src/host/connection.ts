/**
 * Profiles, credentials and the API client of the active profile.
 *
 * - The built-in "Sandbox (local)" profile (the default) starts the embedded sandbox exchange in a
 *   process of its own (sandboxProcess.ts) on 127.0.0.1 on first need (port `spotdesk.sandbox.port`,
 *   default a free one); its state lives in `context.globalStorageUri/sandbox` and its credentials are
 *   provisioned by the sandbox itself. If the process dies it is restarted with a notice; it is
 *   stopped with the extension.
 * - User profiles `{name, baseUrl}` come from the application-scoped setting `spotdesk.profiles`;
 *   `spotdesk.activeProfile` (application scope too) picks one. Application scope means a
 *   workspace's .vscode/settings.json can never redirect signed requests.
 * - API credentials of user profiles live only in SecretStorage under `spotdesk.credentials/<profile id>`.
 *
 * The API client (with its zod schemas) is loaded lazily with dynamic `import()`, which esbuild turns
 * into a lazily-initialised module: activation stays light. The sandbox's engine and server are not
 * in extension.js at all: they run from dist/sandbox-cli.js in the child process.
 */
import * as vscode from 'vscode';
import type { MoneyGuard, SpotClient } from '../api/client';
import type { KeyVersion } from '../api/schemas';
import { SandboxStartError, startSandboxProcess, type SandboxProcess } from './sandboxProcess';
import { COMMANDS } from './commandIds';
import { redact, requestLogLine, type RequestLogEntry } from './requestLog';

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

/** Restarts after unexpected exits within this window count towards the crash-loop limit. */
const RESTART_WINDOW_MS = 60_000;
/** At most this many automatic restarts per window; then the user restarts it (Refresh). */
const MAX_RESTARTS = 3;

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
  /** The signing client of the active profile. */
  private readonly signing = new ClientSlot();
  /** The credential-less client of a user profile without credentials. */
  private readonly public = new ClientSlot();
  private sandboxPromise: Promise<SandboxProcess> | undefined;
  private sandboxProc: SandboxProcess | undefined;
  private readonly restarts: number[] = [];
  /** A free port the user accepted this session instead of a pinned port that was in use. */
  private portOverride: number | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private hasCredentials = false;

  /**
   * @param moneyGuard the guard a real profile's client asks before it moves money (placement,
   *   cancel-all, withdrawal), given the profile id; the sandbox profile's client has none.
   */
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly moneyGuard?: (profileId: string) => MoneyGuard,
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
    return this.signing.get(profileKey(profile), () => this.createClient(profile));
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
    return this.public.get(profileKey(profile), async () => {
      const { SpotClient: Client } = await import('../api/client');
      return new Client({ baseUrl: profile.baseUrl ?? '', onRequest: (e: RequestLogEntry) => this.logRequest(e) });
    });
  }

  /** The most recently created client, if any (for the status bar's budget tooltip; no I/O). */
  currentClient(): SpotClient | undefined {
    return this.signing.last ?? this.public.last;
  }

  /** The embedded sandbox's address, admin token and default user's uid, starting it if the sandbox profile is active. */
  async sandbox(): Promise<{ baseUrl: string; adminToken: string; uid: string } | undefined> {
    if (!this.profile().sandbox) return undefined;
    const s = await this.startSandbox();
    return { baseUrl: s.baseUrl, adminToken: s.adminToken, uid: s.credentials.uid };
  }

  /**
   * The embedded sandbox's base URL and key (starting it if needed, whatever the active profile), for
   * "Use the Sandbox from a Bot…". Holds the secret: never log or display it.
   */
  async embeddedSandbox(): Promise<{ baseUrl: string; apiKey: string; apiSecret: string; apiPassphrase: string; keyVersion: string }> {
    const s = await this.startSandbox();
    const c = s.credentials;
    return { baseUrl: s.baseUrl, apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: c.keyVersion };
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
        COMMANDS.setCredentials,
      );
    }
    return new Client({ baseUrl: profile.baseUrl ?? '', credentials: creds, onRequest, moneyGuard: this.moneyGuard?.(profile.id) });
  }

  /** Log one request: only what the client's hook reports (never headers or KC-API-* values). */
  logRequest(e: RequestLogEntry): void {
    const { level, line } = requestLogLine(e);
    this.log[level](line);
  }

  private startSandbox(): Promise<SandboxProcess> {
    if (!this.sandboxPromise) {
      const p: Promise<SandboxProcess> = Promise.resolve(vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'SpotDesk: starting the local sandbox exchange…' },
        () => this.launchSandbox(),
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

  /** Fork the sandbox process (state in global storage), handling a pinned port in use and a state dir in use. */
  private async launchSandbox(): Promise<SandboxProcess> {
    const t0 = Date.now();
    const entry = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'sandbox-cli.js').fsPath;
    const stateDir = vscode.Uri.joinPath(this.context.globalStorageUri, 'sandbox').fsPath;
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(stateDir));
    const log = (msg: string) => this.log.debug(`[sandbox] ${redact(msg)}`);
    const pinned = vscode.workspace.getConfiguration('spotdesk').get<number>('sandbox.port', 0);
    let port = this.portOverride ?? (Number.isInteger(pinned) && pinned > 0 && pinned < 65536 ? pinned : 0);
    const marketSetting = vscode.workspace.getConfiguration('spotdesk').get<string>('sandbox.market', 'realistic');
    const market = marketSetting === 'quiet' || marketSetting === 'volatile' ? marketSetting : 'realistic';
    const start = (dir: string | null) => startSandboxProcess({ entry, stateDir: dir, port, log, market });
    let s: SandboxProcess;
    try {
      s = await start(stateDir);
    } catch (err) {
      if (err instanceof SandboxStartError && err.code === 'EADDRINUSE' && port !== 0) {
        const choice = await vscode.window.showWarningMessage(
          `SpotDesk: port ${port} (setting spotdesk.sandbox.port) is in use by another program, so the sandbox cannot listen there. ` +
            'Start it on a free port for this session? Bots configured for that port will not reach it.',
          { modal: true },
          'Use a Free Port',
        );
        if (choice !== 'Use a Free Port') throw new Error(`port ${port} is in use; change spotdesk.sandbox.port or free the port`);
        this.portOverride = port = 0;
        s = await start(stateDir);
      } else if (err instanceof SandboxStartError && err.code === 'STATE_DIR_IN_USE') {
        // Typically another VS Code window's sandbox holds the state directory (the error names it).
        this.log.warn(`sandbox state in ${stateDir} unavailable (${err.message}); starting an in-memory sandbox instead`);
        void vscode.window.showWarningMessage(
          `SpotDesk: another VS Code window${err.holder?.baseUrl ? ` (sandbox at ${err.holder.baseUrl})` : ''} is using the sandbox's saved state. ` +
            'This window runs a fresh in-memory sandbox; its orders and balances are not kept.',
        );
        s = await start(null);
      } else {
        throw err;
      }
    }
    this.log.info(`sandbox process ${s.pid} listening on ${s.baseUrl} (state in ${s.stateDir ?? 'memory'}, started in ${Date.now() - t0} ms)`);
    for (const w of s.warnings) this.log.warn(`[sandbox] ${redact(w)}`);
    this.sandboxProc = s;
    s.onUnexpectedExit((code, signal) => this.sandboxDied(s, code, signal));
    return s;
  }

  /** The sandbox process died on its own: restart it with a notice (unless it keeps dying). */
  private sandboxDied(s: SandboxProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.sandboxProc !== s) return;
    this.sandboxProc = undefined;
    this.sandboxPromise = undefined;
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    this.log.error(`sandbox process ${s.pid} stopped unexpectedly (${how})`);
    const now = Date.now();
    while (this.restarts.length && now - this.restarts[0] > RESTART_WINDOW_MS) this.restarts.shift();
    if (this.restarts.length >= MAX_RESTARTS) {
      void vscode.window
        .showErrorMessage(
          `SpotDesk: the local sandbox exchange stopped unexpectedly (${how}) ${MAX_RESTARTS + 1} times within a minute, so it is not restarted automatically. See the "SpotDesk" output channel.`,
          'Restart Sandbox',
          'Show Log',
        )
        .then((c) => {
          if (c === 'Show Log') this.log.show();
          if (c !== 'Restart Sandbox') return;
          this.restarts.length = 0;
          this.reset(); // views refresh and start a new sandbox process
        });
      this.reset();
      return;
    }
    this.restarts.push(now);
    void vscode.window.showWarningMessage(`SpotDesk: the local sandbox exchange stopped unexpectedly (${how}). Restarting it…`);
    // clients of the dead process are dropped; views refresh and start the new one
    if (this.profile().sandbox) void this.startSandbox().catch(() => undefined);
    this.reset();
  }

  private reset(): void {
    for (const old of [this.signing.reset(), this.public.reset()]) {
      if (!old) continue;
      // Release its keep-alive sockets once requests still in flight have had time to finish.
      const t = setTimeout(() => old.close(), 30_000);
      t.unref?.();
    }
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
    this.signing.reset()?.close();
    this.public.reset()?.close();
    const proc = this.sandboxProc;
    this.sandboxProc = undefined;
    void proc?.stop();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** Cache key of a profile's client: its id and base URL. */
function profileKey(profile: Profile): string {
  return `${profile.id} ${profile.baseUrl ?? ''}`;
}

/**
 * One cached client: created on first need for a key, kept until the key changes or
 * {@link reset}; a creation that fails is forgotten so the next call tries again.
 */
class ClientSlot {
  private promise: Promise<SpotClient> | undefined;
  private key: string | undefined;
  /** The client the last successful creation produced (no I/O). */
  last: SpotClient | undefined;

  /** The client for `key`, created with `create` when there is none for it. */
  get(key: string, create: () => Promise<SpotClient>): Promise<SpotClient> {
    if (!this.promise || this.key !== key) {
      this.key = key;
      const p = create();
      this.promise = p;
      p.then(
        (c) => {
          if (this.promise === p) this.last = c;
        },
        () => {
          if (this.promise === p) this.promise = undefined;
        },
      );
    }
    return this.promise;
  }

  /** Forget the client; returns the one that was created, if any (the caller closes it). */
  reset(): SpotClient | undefined {
    const old = this.last;
    this.promise = this.key = this.last = undefined;
    return old;
  }
}
