// Types of scripts/lib/codeServer.js for TypeScript callers (test/e2e).
import type { ChildProcess } from 'child_process';

export const ROOT: string;
export const CODE_SERVER_VERSION: string;
export const CODE_SERVER_DIR: string;
export const APT_PACKAGES: string;
export const CHROMIUM_ARGS: string[];
export function say(msg: string): void;
export function which(cmd: string): string | undefined;
export function ensureCodeServer(): string;
export interface RunningCodeServer {
  port: number;
  proc: ChildProcess;
  userDataDir: string;
  logLines: string[];
  stop(): Promise<void>;
}
export function startCodeServer(opts?: {
  port?: number;
  workspace?: string;
  userDataDir?: string;
  settings?: Record<string, unknown>;
  quiet?: boolean;
  env?: Record<string, string>;
}): Promise<RunningCodeServer>;
export function workbenchUrl(opts: { port: number; folder?: string; extensionPath?: string | null; testsPath?: string }): string;
export function installExtension(opts: { vsix: string; userDataDir: string }): string;
export function freePort(): Promise<number>;
export function chromiumPath(): string;
export function build(): void;
export function missingPrerequisites(): string[];
export function ensurePackages(names: Array<'libkrb5-dev' | 'ripgrep' | 'chromium' | 'fonts-liberation'>): void;
