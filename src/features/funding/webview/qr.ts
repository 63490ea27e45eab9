/**
 * QR codes of a deposit address and memo, rendered locally (qrcode-generator, bundled: nothing is
 * loaded from the network) onto a `<canvas>`: dark modules on white with a 4-module quiet zone,
 * whatever the theme, so that phone wallets can scan it.
 */
import qrcode from 'qrcode-generator';

/** Pixels per module. */
export const MODULE_PX = 4;
/** Quiet zone around the code, in modules (the QR standard asks for 4). */
export const QUIET_ZONE = 4;

/** The QR module matrix of `text` (error correction M, smallest version that fits). */
export function qrModules(text: string): boolean[][] {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (__, c) => qr.isDark(r, c)));
}

/**
 * A canvas with the QR code of `text`, labelled for assistive technology by `label`. Its
 * `data-modules` holds the module count (tests read it).
 */
export function qrCanvas(text: string, label: string): HTMLCanvasElement {
  const m = qrModules(text);
  const n = m.length;
  const size = (n + 2 * QUIET_ZONE) * MODULE_PX;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  canvas.className = 'qr';
  canvas.dataset.modules = String(n);
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  const ctx = canvas.getContext('2d');
  if (!ctx) return canvas;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, size, size);
  ctx.fillStyle = '#000000';
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (m[r][c]) ctx.fillRect((c + QUIET_ZONE) * MODULE_PX, (r + QUIET_ZONE) * MODULE_PX, MODULE_PX, MODULE_PX);
  return canvas;
}
