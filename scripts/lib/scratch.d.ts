// Types of scripts/lib/scratch.js for TypeScript callers (tests).
export const EXAMPLE: string;
export const EXAMPLE_NAME: string;
export function ensureScratchWorkspace(dir: string): string;
