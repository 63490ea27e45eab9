/**
 * Generates media/spotorder.schema.json, the JSON schema of order documents (`*.spotorder.json`,
 * contributed through package.json `jsonValidation`), from the client's zod schema
 * `PlaceOrderRequest` (src/api/schemas.ts) with zod 4's `z.toJSONSchema`.
 *
 *   npx tsx scripts/gen-spotorder-schema.ts          write the file
 *   npx tsx scripts/gen-spotorder-schema.ts --check  exit 1 when the file is out of date
 *
 * The generator itself lives in src/shared/requestBuilder/orderSchema.ts (unit-tested).
 */
import * as fs from 'fs';
import * as path from 'path';
import { orderDocumentSchemaText } from '../src/shared/requestBuilder/orderSchema';

const out = path.join(__dirname, '..', 'media', 'spotorder.schema.json');
const text = orderDocumentSchemaText();
if (process.argv.includes('--check')) {
  const current = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
  if (current !== text) {
    console.error(`${path.relative(process.cwd(), out)} is out of date: run npx tsx scripts/gen-spotorder-schema.ts`);
    process.exit(1);
  }
  console.log(`${path.relative(process.cwd(), out)} is up to date`);
} else {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, text);
  console.log(`wrote ${path.relative(process.cwd(), out)} (${text.length} bytes)`);
}
