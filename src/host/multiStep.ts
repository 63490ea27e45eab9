/**
 * A small multi-step QuickInput driver (after the VS Code "multi-step input" sample): each step is
 * a function that shows one QuickPick or InputBox titled with "step n/total" — or only "n" while
 * the total is not known yet (a later choice still adds or removes steps) — with a Back button
 * from step 2 on. Pressing Back re-runs the previous step; Escape cancels the whole flow.
 *
 * Commands run their flows through `Prompts.steps` (./prompts.ts), whose interactive
 * implementation is {@link MultiStepInput.run}; a step only sees the {@link StepInput} interface.
 */
import * as vscode from 'vscode';

/** Thrown inside a step when the user pressed Back. */
class BackSignal extends Error {}
/** Thrown when the user dismissed the input (Escape / focus lost). */
export class CancelledSignal extends Error {}

/** What a step can ask: one pick or one text input (resolved with the accepted value). */
export interface StepInput {
  /** Show a pick step; resolves with the chosen item's value. */
  pick<T>(o: PickOptions<T>): Promise<T>;
  /** Show a text step; resolves with accepted text that passed `validate`. */
  text(o: TextOptions): Promise<string>;
}

/** A step: shows one input and returns the next step (or undefined when done). */
export type Step = (input: StepInput) => Promise<Step | void>;

/** One item of a pick step; `value` is returned when chosen. */
export interface PickItem<T> extends vscode.QuickPickItem {
  value: T;
}

/** Options of {@link MultiStepInput.pick}. */
export interface PickOptions<T> {
  title: string;
  step: number;
  /** Undefined while later choices can still change the number of steps (VS Code then shows "n"). */
  totalSteps: number | undefined;
  placeholder: string;
  items: PickItem<T>[];
  active?: PickItem<T>;
}

/** Options of {@link MultiStepInput.text}. */
export interface TextOptions {
  title: string;
  step: number;
  /** Undefined while later choices can still change the number of steps (VS Code then shows "n"). */
  totalSteps: number | undefined;
  prompt: string;
  value?: string;
  placeholder?: string;
  /** Returns an error message, or undefined when the value is acceptable. */
  validate?: (value: string) => string | undefined;
}

/** Runs steps in order with Back support. */
export class MultiStepInput implements StepInput {
  private readonly history: Step[] = [];
  private current?: vscode.QuickInput;

  /** Run from `start` until a step returns nothing. @throws CancelledSignal when the user cancels. */
  static async run(start: Step): Promise<void> {
    return new MultiStepInput().stepThrough(start);
  }

  private async stepThrough(start: Step): Promise<void> {
    let step: Step | void = start;
    while (step) {
      this.history.push(step);
      if (this.current) {
        this.current.enabled = false;
        this.current.busy = true;
      }
      try {
        step = await step(this);
      } catch (err) {
        if (err instanceof BackSignal) {
          this.history.pop();
          step = this.history.pop();
        } else {
          this.current?.dispose();
          throw err;
        }
      }
    }
    this.current?.dispose();
  }

  /** Show a QuickPick step and resolve with the chosen item's value. */
  async pick<T>(o: PickOptions<T>): Promise<T> {
    const disposables: vscode.Disposable[] = [];
    try {
      return await new Promise<T>((resolve, reject) => {
        const qp = vscode.window.createQuickPick<PickItem<T>>();
        qp.title = o.title;
        qp.step = o.step;
        qp.totalSteps = o.totalSteps;
        qp.placeholder = o.placeholder;
        qp.items = o.items;
        qp.matchOnDescription = true;
        qp.matchOnDetail = true;
        qp.ignoreFocusOut = true;
        if (o.active) qp.activeItems = [o.active];
        qp.buttons = this.history.length > 1 ? [vscode.QuickInputButtons.Back] : [];
        disposables.push(
          qp.onDidTriggerButton((b) => {
            if (b === vscode.QuickInputButtons.Back) reject(new BackSignal());
          }),
          qp.onDidAccept(() => {
            const sel = qp.selectedItems[0] ?? qp.activeItems[0];
            if (sel) resolve(sel.value);
          }),
          qp.onDidHide(() => reject(new CancelledSignal())),
        );
        this.replace(qp);
      });
    } finally {
      disposables.forEach((d) => d.dispose());
    }
  }

  /** Show an InputBox step and resolve with the accepted (valid) text. */
  async text(o: TextOptions): Promise<string> {
    const disposables: vscode.Disposable[] = [];
    try {
      return await new Promise<string>((resolve, reject) => {
        const box = vscode.window.createInputBox();
        box.title = o.title;
        box.step = o.step;
        box.totalSteps = o.totalSteps;
        box.prompt = o.prompt;
        box.value = o.value ?? '';
        box.placeholder = o.placeholder;
        box.ignoreFocusOut = true;
        box.buttons = this.history.length > 1 ? [vscode.QuickInputButtons.Back] : [];
        const check = () => {
          box.validationMessage = o.validate?.(box.value);
        };
        disposables.push(
          box.onDidTriggerButton((b) => {
            if (b === vscode.QuickInputButtons.Back) reject(new BackSignal());
          }),
          box.onDidChangeValue(check),
          box.onDidAccept(() => {
            const msg = o.validate?.(box.value);
            box.validationMessage = msg;
            if (!msg) resolve(box.value);
          }),
          box.onDidHide(() => reject(new CancelledSignal())),
        );
        this.replace(box);
      });
    } finally {
      disposables.forEach((d) => d.dispose());
    }
  }

  private replace(input: vscode.QuickInput): void {
    const old = this.current;
    this.current = input;
    input.show();
    old?.dispose();
  }
}
