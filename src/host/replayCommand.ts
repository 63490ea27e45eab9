/**
 * "SpotDesk: Replay a Recorded Market…" (`spotdesk.replayRecording`): pick a recording (`spotdesk-sandbox
 * record` writes `.sdrec`; tardis.dev CSVs are converted first with `spotdesk-sandbox convert-tardis`,
 * docs/recording.md), pick a speed (1×, 10×, 60× the recorded pace, or a manual clock that the admin clock
 * endpoint steps), then switch to the Replay profile: the embedded sandbox replays the file with `--replay FILE
 * --speed N` in a fresh state dir of its own (connection.ts `startReplay`). Takes no arguments (everything comes
 * from the person) and returns nothing. Loaded on first use.
 */
import * as vscode from 'vscode';
import type { Connection } from './connection';
import type { Prompts } from './prompts';
import { RECORDING_FILTERS, REPLAY_SPEEDS, speedLabel } from './embeddedProfiles';

/** Ask for the recording and the speed, then start the replay. Cancelling either step changes nothing. */
export async function runReplayRecording(connection: Connection, prompts: Prompts): Promise<void> {
  const title = 'SpotDesk: Replay a Recorded Market';
  const last = connection.replaySettings();
  const file = await prompts.openFile({
    title: `${title} (1/2): the recording`,
    openLabel: 'Replay',
    filters: { ...RECORDING_FILTERS },
    ...(last ? { defaultUri: vscode.Uri.file(last.file) } : {}),
  });
  if (!file) return;
  const items = REPLAY_SPEEDS.map((speed) => ({
    label: speedLabel(speed),
    description: speed === 'manual' ? 'time moves only through the admin clock (POST /sandbox/v1/clock): a bot steps through it' : `${speed} × the recorded pace`,
    speed,
  }));
  const choice = await prompts.pick(items, { title: `${title} (2/2): the speed`, placeHolder: vscode.workspace.asRelativePath(file) });
  if (!choice) return;
  await connection.startReplay(file.fsPath, choice.speed);
}
