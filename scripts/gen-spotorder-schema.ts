/**
 * Generates the artefacts derived from the order request schema `PlaceOrderRequest`
 * (src/api/schemas.ts, the single source of truth):
 *   - media/spotorder.schema.json, the JSON schema of order documents (`*.spotorder.json`,
 *     contributed through package.json `jsonValidation`), with zod 4's `z.toJSONSchema`;
 *   - src/api/orderFields.ts, the zod-free field table read by the order rules and the webviews.
 *
 *   npx tsx scripts/gen-spotorder-schema.ts          write the files
 *   npx tsx scripts/gen-spotorder-schema.ts --check  exit 1 when a file is out of date
 *
 * The generators live in scripts/orderSchema.ts (unit-tested; a unit test also
 * runs this script's --check).
 */
import * as fs from 'fs';
import * as path from 'path';
import { orderDocumentSchemaText, orderFieldsModuleText } from './orderSchema';

const root = path.join(__dirname, '..');
const outputs: [file: string, text: string][] = [
  [path.join(root, 'media', 'spotorder.schema.json'), orderDocumentSchemaText()],
  [path.join(root, 'src', 'api', 'orderFields.ts'), orderFieldsModuleText()],
];
const check = process.argv.includes('--check');
let stale = 0;
for (const [out, text] of outputs) {
  const rel = path.relative(process.cwd(), out);
  if (check) {
    const current = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
    if (current !== text) {
      console.error(`${rel} is out of date: run npx tsx scripts/gen-spotorder-schema.ts`);
      stale++;
    } else console.log(`${rel} is up to date`);
  } else {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, text);
    console.log(`wrote ${rel} (${text.length} bytes)`);
  }
}
if (stale > 0) process.exit(1);
