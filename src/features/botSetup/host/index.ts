/**
 * "SpotDesk: Use the Sandbox from a Bot…": shows the embedded sandbox's base URL, API key
 * and key version (the secret and passphrase stay masked), and offers `.env` lines (clipboard or a file
 * the user picks) and client snippets for ccxt and kucoin-universal-sdk (src/features/botSetup/model/botSnippets.ts):
 * complete programs that run as given, for this embedded sandbox (plain HTTP, ws://) or, as a second
 * group, for a sandbox started with `npm run sandbox -- --tls` (HTTPS, wss://, its CA trusted through
 * NODE_EXTRA_CA_CERTS / REQUESTS_CA_BUNDLE). The embedded sandbox itself always serves plain HTTP.
 *
 * Secrets leave SpotDesk only through the `.env` actions, each after a modal that says what will be
 * written and where; they are never logged, put in settings or shown in the picker. The command takes
 * no arguments: another extension calling it gets the same prompts as the user.
 */
import * as vscode from 'vscode';
import { ccxtJsSnippet, ccxtPythonSnippet, envLines, mergeEnv, universalSdkSnippet, type BotCredentials, type SnippetVariant } from '../model/botSnippets';
import type { Prompts } from '../../../host/prompts';

/** What the command needs (the connection's embedded sandbox, the prompts, the log). */
export interface BotSetupDeps {
  /** Start (if needed) the embedded sandbox and return its connection data. */
  sandbox(): Promise<BotCredentials>;
  prompts: Prompts;
  log: vscode.LogOutputChannel;
}

type Action = 'env-copy' | 'env-file' | 'snippet' | 'pin' | 'info';
type Snippet = 'ccxt-js' | 'ccxt-py' | 'sdk';
interface Item extends vscode.QuickPickItem {
  action: Action;
  /** For `snippet`: which one, for which sandbox. */
  snippet?: { kind: Snippet; variant: SnippetVariant };
}

/** Snippet texts and their names in messages. */
const SNIPPETS: Record<Snippet, { label: string; name: string; text: (v: SnippetVariant) => string }> = {
  'ccxt-js': { label: 'a ccxt snippet (JavaScript)', name: 'the ccxt (JavaScript) snippet', text: ccxtJsSnippet },
  'ccxt-py': { label: 'a ccxt snippet (Python)', name: 'the ccxt (Python) snippet', text: ccxtPythonSnippet },
  sdk: { label: 'a kucoin-universal-sdk snippet (TypeScript)', name: 'the kucoin-universal-sdk snippet', text: universalSdkSnippet },
};

/** The quick-pick items of the snippets of one variant. */
function snippetItems(variant: SnippetVariant): Item[] {
  const detail =
    variant === 'plain'
      ? 'A program that prints balances and the book; reads KUCOIN_* from the environment; contains no secret'
      : 'The same for HTTPS/wss://; says which CA file to trust (STATE_DIR/ca.pem); contains no secret';
  return (Object.keys(SNIPPETS) as Snippet[]).map((kind) => ({
    label: `$(code) Copy ${SNIPPETS[kind].label}${variant === 'tls' ? ' for --tls' : ''}`,
    detail,
    action: 'snippet',
    snippet: { kind, variant },
  }));
}

const MASK = '•••••••• (never shown; written only where you choose)';

/** Run the command (see the module doc). */
export async function useSandboxFromBot(d: BotSetupDeps): Promise<void> {
  const c = await d.sandbox();
  const port = Number(new URL(c.baseUrl).port);
  const pinned = vscode.workspace.getConfiguration('spotdesk').get<number>('sandbox.port', 0);
  const sep = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator, action: 'info' });
  const items: Item[] = [
    sep('SpotDesk sandbox: a local exchange on this machine, not real money'),
    { label: 'Base URL', description: c.baseUrl, action: 'info' },
    { label: 'API key', description: c.apiKey, action: 'info' },
    { label: 'API secret', description: MASK, action: 'info' },
    { label: 'API passphrase', description: MASK, action: 'info' },
    { label: 'Key version', description: c.keyVersion, action: 'info' },
    sep('Give it to your bot'),
    { label: '$(clippy) Copy as .env lines', detail: 'KUCOIN_BASE_URL, KUCOIN_API_KEY, KUCOIN_API_SECRET, KUCOIN_API_PASSPHRASE, KUCOIN_API_KEY_VERSION', action: 'env-copy' },
    { label: '$(new-file) Write them to a .env file…', detail: 'You pick the file; other lines in it are kept', action: 'env-file' },
    ...snippetItems('plain'),
  ];
  if (pinned !== port) {
    items.push({
      label: `$(pinned) Pin the sandbox to port ${port}`,
      detail: 'Sets spotdesk.sandbox.port, so the base URL stays the same after VS Code restarts',
      action: 'pin',
    });
  }
  items.push(sep('For a sandbox started with npm run sandbox -- --tls (HTTPS, wss://)'), ...snippetItems('tls'));
  const choice = await d.prompts.pick(items, { title: 'SpotDesk: Use the Sandbox from a Bot', placeHolder: `Sandbox at ${c.baseUrl}` });
  if (!choice || choice.action === 'info') return;
  const copy = async (text: string, what: string): Promise<void> => {
    await vscode.env.clipboard.writeText(text);
    d.log.info(`bot setup: copied ${what} to the clipboard`);
    void vscode.window.showInformationMessage(`SpotDesk: copied ${what} to the clipboard.`);
  };
  switch (choice.action) {
    case 'snippet': {
      const { kind, variant } = choice.snippet!;
      return copy(SNIPPETS[kind].text(variant), `${SNIPPETS[kind].name}${variant === 'tls' ? ' for a --tls sandbox' : ''}`);
    }
    case 'pin':
      await vscode.workspace.getConfiguration('spotdesk').update('sandbox.port', port, vscode.ConfigurationTarget.Global);
      void vscode.window.showInformationMessage(`SpotDesk: the sandbox will listen on port ${port} from now on (spotdesk.sandbox.port).`);
      return;
    case 'env-copy': {
      const ok = await d.prompts.confirm(
        "Copy the sandbox's API secret and passphrase to the clipboard?",
        `Five .env lines (base URL, API key, secret, passphrase, key version) go to the clipboard, where any program can read them. They are the keys of the local sandbox at ${c.baseUrl} (no real money).`,
        'Copy to Clipboard',
      );
      if (!ok) return;
      return copy(envLines(c, Date.now()), 'the .env lines (with the secret)');
    }
    case 'env-file': {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const target = await vscode.window.showSaveDialog({
        title: 'SpotDesk: write the sandbox key to a .env file',
        defaultUri: folder ? vscode.Uri.joinPath(folder, '.env') : undefined,
        saveLabel: 'Choose',
      });
      if (!target) return;
      let existing = '';
      try {
        existing = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
      } catch {
        existing = '';
      }
      const ok = await d.prompts.confirm(
        `Write the sandbox's API secret and passphrase to ${target.fsPath}?`,
        `${existing ? 'The KUCOIN_* lines in this file are replaced; its other lines are kept.' : 'A new file is created.'} ` +
          `It will hold KUCOIN_BASE_URL, KUCOIN_API_KEY, KUCOIN_API_SECRET, KUCOIN_API_PASSPHRASE and KUCOIN_API_KEY_VERSION of the local sandbox at ${c.baseUrl} (no real money). ` +
          'Keep .env files out of version control.',
        'Write File',
      );
      if (!ok) return;
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(mergeEnv(existing, envLines(c, Date.now()))));
      d.log.info(`bot setup: wrote the sandbox's .env lines to ${target.fsPath}`);
      void vscode.window.showInformationMessage(`SpotDesk: wrote the sandbox key to ${vscode.workspace.asRelativePath(target)}.`);
      return;
    }
  }
}
